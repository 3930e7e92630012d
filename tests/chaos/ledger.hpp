#pragma once
// The client side of the campaign: what svcd acknowledged (2xx) to the load,
// with the request and the answer, and what it left unanswered because it
// was killed mid-request, so the checks after each restart can ask again for
// every acknowledged write. The client threads share one ledger; every access
// goes through `with`, under one lock.

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "support/http_client.hpp"

namespace svc::chaos {

/// What a request came to, as its client saw it.
enum class outcome {
  acknowledged, ///< 2xx: it happened, and must survive any crash
  refused,      ///< 4xx, or 507 (a full store changes nothing): it did not happen
  server_error, ///< any other 5xx: it may have happened or not
  unanswered,   ///< no answer (svcd was killed): it may have happened or not
};
/// Whether a request that came to `o` may have happened without the client knowing.
inline bool uncertain(outcome o) { return o == outcome::server_error || o == outcome::unanswered; }

/// The outcome of an answer with `status` (0: none came).
outcome outcome_of(int status);

/// The operations of the load, counted by outcome in the summary.
enum class operation {
  image,
  video,
  cancel,
  upload,
  endpoint,
  endpoint_delete,
  rotate_secret,
  rotate_key,
  grant,
  replay,
};
inline constexpr std::size_t operation_count = 10;
/// The operation's name in the summary.
std::string_view name_of(operation op);

/// A create sent with an `Idempotency-Key`, and its first answer.
struct keyed_create {
  std::string target; ///< `/v1/images`, `/v1/videos` or `/v1/webhook_endpoints`
  std::string idempotency_key;
  std::string body;   ///< the request body as sent
  int status = 0;     ///< the first answer's status (once acknowledged)
  std::string answer; ///< the first answer's body
};

/// A job svcd acknowledged.
struct job_entry {
  std::string id; ///< img_ or vid_
  bool video = false;
};

/// A webhook endpoint svcd acknowledged.
struct endpoint_entry {
  std::string id;
  std::string path;                ///< its path on the campaign's receiver, one per endpoint
  std::set<std::string> events;    ///< the event types svcd answered it subscribes to
  std::int64_t subscribed_at_ms = 0; ///< when its 201 arrived: every event minted later is owed to it
  bool deleted = false;            ///< a delete was acknowledged (or sent unanswered): nothing owed since
  bool delete_acknowledged = false; ///< svcd answered the delete: it must stay gone
};

/// An acknowledged rotation of a team's write key.
struct key_rotation {
  std::string old_key; ///< still valid through its grace
  std::string new_key; ///< valid from the answer on
};

/// One team as its clients know it.
struct team_ledger {
  std::string id;
  std::string full_key;     ///< rotates the write key and reads; never rotated itself
  std::string write_key;    ///< what creates use; replaced by each acknowledged rotation
  std::string write_key_id; ///< key_ id of `write_key`
  std::int64_t granted = 0; ///< opening credits plus every acknowledged grant
  std::vector<std::int64_t> unanswered_grants; ///< grants that may have landed: resolved after restart
  bool grant_in_flight = false;    ///< one grant at a time, so few are unanswered at a kill
  bool rotation_in_flight = false; ///< one write-key rotation at a time
  bool rotation_unanswered = false; ///< a rotation got no answer: resolved after restart
  int endpoints_made = 0;          ///< numbers the receiver paths
  std::vector<job_entry> jobs;
  std::vector<std::string> cancelled; ///< jobs whose cancel was acknowledged
  std::vector<std::string> files;
  std::vector<endpoint_entry> endpoints;
  std::vector<keyed_create> keyed;            ///< acknowledged keyed creates
  std::size_t keyed_rechecked = 0;            ///< `keyed[0..n)` were asked again after some restart
  std::vector<keyed_create> keyed_unanswered; ///< asked again after restart
  std::vector<key_rotation> rotations;
  std::size_t rotations_checked = 0; ///< `rotations[0..n)` were checked after some restart
};

/// Requests per operation and outcome.
using request_counts = std::array<std::array<std::uint64_t, 4>, operation_count>;

/// Everything the clients know.
struct ledger_state {
  std::vector<team_ledger> teams;
  request_counts counts{};
  std::map<std::string, std::uint64_t> refusals; ///< `<operation>: <status> <error.code>` of 4xx and 5xx answers
  std::uint64_t keyed_resolved_replayed = 0; ///< unanswered keyed creates that had happened (a replay answered)
  std::uint64_t keyed_resolved_fresh = 0;    ///< ...that had not (the retry created them)
  std::uint64_t keyed_resolved_refused = 0;  ///< ...that had not, and a full store refused again (507)
  std::uint64_t grants_resolved_landed = 0;  ///< unanswered grants that had landed
  std::uint64_t grants_resolved_lost = 0;    ///< ...that had not
  std::uint64_t rotations_resolved_lost = 0; ///< unanswered key rotations that had happened (new key unknown)
};

class ledger {
public:
  /// Runs `f(ledger_state&)` under the lock and returns what it returns.
  template <class F>
  auto with(F&& f) {
    std::lock_guard lock(mutex_);
    return f(state_);
  }
  /// Counts one request of `op` that got `answer` (nothing: no answer), and
  /// returns its outcome.
  outcome count(operation op, const std::optional<e2e::response>& answer);

private:
  std::mutex mutex_;
  ledger_state state_;
};

} // namespace svc::chaos
