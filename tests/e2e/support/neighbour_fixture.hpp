#pragma once
// What every "faults of neighbours" case shares (issue 12, item 8): an svcd
// that delivers webhooks, two teams whose endpoints sit on a healthy
// receiver, the bounds the rest of the service keeps while one neighbour
// (a receiver, the remote back end, the SMTP relay) misbehaves, and the
// checks of those bounds.

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "support/latency_probe.hpp"
#include "support/webhook_receiver_fixture.hpp"

namespace svc::e2e {

/// The slowest API read allowed while a neighbour misbehaves: an idle read
/// takes milliseconds, this leaves room for a loaded 2-core machine.
inline constexpr std::chrono::milliseconds read_bound{1000};
/// The longest a test fire may take from the API call to a healthy
/// receiver (TLS handshake included) while a neighbour misbehaves.
inline constexpr std::chrono::milliseconds delivery_bound{1500};
/// How long a misbehaving neighbour is waited for in these suites: over
/// three times the delivery bound, so a service that waits on it breaks the
/// bounds, and a test's healthy traffic fits in while it is waited for.
inline constexpr std::chrono::milliseconds neighbour_timeout{5000};
/// `neighbour_timeout` as an svcd option value.
inline constexpr const char* neighbour_timeout_option = "5s";

/// A team whose endpoint, subscribed to every event, sits on the healthy receiver.
struct healthy_team {
  team_keys keys;
  std::string endpoint_id;
  std::string path; ///< the endpoint's path on the receiver
};

class neighbour_fixture : public webhook_fixture {
public:
  /// svcd with `extra_args` (after the webhook options), teams `a` and `b`.
  explicit neighbour_fixture(std::vector<std::string> extra_args);

  http_client c;  ///< a client of the public API
  healthy_team a; ///< the team the tests' bad neighbour serves (when it is a team's)
  healthy_team b; ///< a team that has nothing to do with it

  /// Starts timing reads of GET /v1/team, GET /v1/balance, team a's healthy
  /// endpoint and its deliveries, plus `targets`, all with team a's read key.
  std::unique_ptr<latency_probe> probe_reads(std::vector<std::string> targets = {}) const;
  /// Fires test events at both teams' endpoints in rounds, one per team,
  /// each waited for at the receiver, until `go_on()` is false after at
  /// least `min_rounds`; checks that the slowest fire-to-receipt time of
  /// each team keeps `delivery_bound`.
  void check_healthy_deliveries(const std::function<bool()>& go_on = {}, int min_rounds = 3);
  /// Checks that `f` has enough reads, none failed, the slowest within `read_bound`.
  static void check_reads(const read_figures& f);

private:
  healthy_team make_healthy_team(const std::string& path);
  std::chrono::milliseconds delivery_time(const healthy_team& t);
};

} // namespace svc::e2e
