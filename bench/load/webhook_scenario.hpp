#pragma once
// Scenario `webhook`: verified webhook deliveries per second and event
// latency. svc-bench runs its own HTTPS receiver (svc_test_receiver, server
// certificate from the test CA in --ca-dir, which svcd trusts through
// --webhook-ca-file), registers E endpoints per team (`/hooks/<i>`, each
// secret kept) and makes events by cancelling queued images (svcd runs with
// --render-delay 1h): each cancel emits `image.cancelled`, fanned out to the
// team's E endpoints. The receiver checks every delivery's
// `Svc-Webhook-Signature` against its endpoint's secret; latency is receipt
// minus the envelope's `created_at` (millisecond precision).

#include "bench/load/latency_summary.hpp"
#include "bench/load/requests.hpp"
#include "bench/load/status_counts.hpp"
#include "bench/load/target.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace svc::bench {

struct webhook_options {
  target server;
  std::vector<std::string> keys;       ///< one write key per team
  image_spec image;                    ///< the images that get cancelled
  std::string ca_dir;                  ///< test CA and server certificate; made there if absent
  std::size_t endpoints_per_team = 8;
  std::string subscribe = "mixed";     ///< `all`: ["*"], `cancelled`: ["image.cancelled"], `mixed`: alternating
  double rate = 0;                     ///< deliveries/s to pace the events at; 0: closed loop (max throughput)
  std::size_t window = 512;            ///< closed loop: deliveries owed (event made, not yet received) at most
  std::size_t connections = 16;        ///< API connections sending cancels (and creates when a pool runs dry)
  std::size_t receiver_threads = 1;    ///< the HTTPS receiver's io threads
  std::size_t pool = 0;                ///< queued images made per team before the run; 0: sized for the run
  std::chrono::milliseconds warmup{1'000};
  std::chrono::milliseconds duration{10'000};
  std::chrono::milliseconds drain{15'000}; ///< after the window, wait this long at most for owed deliveries
  int svcd_pid = 0;                    ///< > 0: report this process's CPU per thread over the window
};

/// CPU one thread of svcd used inside the window.
struct thread_cpu {
  int tid = 0;
  std::string name;
  double seconds = 0;
};

struct webhook_result {
  std::string setup_error;             ///< set: the run did not start (endpoints or images could not be made)
  uint64_t deliveries = 0;             ///< verified first receipts inside the window
  latency_summary latency;             ///< of those: receipt - envelope `created_at`
  uint64_t signature_failures = 0;     ///< missing or wrong `Svc-Webhook-Signature` (any time)
  uint64_t malformed = 0;              ///< unknown path, unparsable envelope, header/envelope mismatch
  uint64_t duplicates = 0;             ///< an (endpoint, event) received again
  uint64_t expected = 0;               ///< successful cancels x endpoints per team
  uint64_t received = 0;               ///< distinct (endpoint, event) received by the end of the drain
  std::map<std::string, uint64_t> types; ///< event type -> deliveries
  status_counts cancels, creates;      ///< answers (creates: in the pool and during the run)
  uint64_t creates_in_window = 0;      ///< creates made inside the window because a pool ran dry
  uint64_t receiver_connections = 0;   ///< TLS connections svcd opened to the receiver
  double seconds = 0;                  ///< the window
  double drain_seconds = 0;            ///< window end -> last owed delivery (or the drain limit)
  double client_cpu_s = 0;             ///< this process (source and receiver) inside the window
  double svcd_cpu_s = 0;               ///< svcd inside the window (with `svcd_pid`)
  std::vector<thread_cpu> svcd_threads; ///< busiest first

  /// Verified deliveries per second of the window.
  double deliveries_per_s() const;
  /// Owed deliveries that never came.
  uint64_t missing() const { return expected > received ? expected - received : 0; }
  /// No bad signature, no malformed or duplicate delivery, none missing, every answer as expected.
  bool clean() const;
};

/// Makes (or keeps) the test CA and server certificate in `dir`: `ca.pem` is
/// what svcd's --webhook-ca-file names. Throws std::runtime_error on failure.
void prepare_webhook_ca(const std::string& dir);

/// Registers the endpoints, fills the pools, runs warm-up + window, drains.
webhook_result run_webhook(const webhook_options& o);

/// The human report (a few lines) and the `SUMMARY {...}` JSON line.
std::string webhook_report(const webhook_options& o, const webhook_result& r);

} // namespace svc::bench
