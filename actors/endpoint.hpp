#pragma once
// The endpoint actor: one per webhook endpoint, the only writer of its record.
// It attempts its delivery tasks (a few at once, no ordering promised), writes
// one delivery row per attempt, re-arms failed ones from `--retry-schedule`
// until attempt 5 dies as a dead letter, counts consecutive failures and
// disables itself by the contract's rule (mail to the owner, an event to the
// team's other endpoints), and drops a rotated-out secret when its grace
// ends. Each timer's deadline is stored (task `due_at`, the record's times),
// so a restart re-arms it.

#include <deque>
#include <map>

#include "actors/context.hpp"

namespace svc::actors {

/// What endpoints need besides the context; owned by the runtime.
struct endpoint_services {
  webhook_transport* transport = nullptr;
  mailer_actor mailer;                 ///< may be invalid (tests): no mail
  webhook_directory_actor directory;   ///< told about changes; publishes endpoint_disabled
  bucket_directory_actor buckets;      ///< charged one `webhook_replay_events` token per replayed event; may be invalid (tests): no limit
};

/// Attempts one endpoint runs at the same time.
inline constexpr std::size_t max_parallel_deliveries = 16;

/// Events one replay enqueues at most.
inline constexpr int64_t max_replay_events = 10000;

/// The `User-Agent` of every delivery.
inline constexpr std::string_view webhook_user_agent = "Svc-Webhooks/1.0";

struct endpoint_state {
  schema::webhook_endpoint_record record;          ///< as last committed (or being committed)
  std::map<std::string, schema::delivery_task> tasks; ///< every pending task, by id
  std::deque<std::string> ready;                   ///< due tasks waiting for a free slot
  std::map<std::string, std::string> attempting;   ///< task id -> event type, while its attempt is in flight
  std::size_t in_flight = 0;
  bool window_armed = false;                       ///< a disable-window check is scheduled
  uint64_t attempts = 0, failures = 0;             ///< since start, for `describe`
  static inline const char* name = "webhook_endpoint";
};

/// Spawned by the webhook directory for each endpoint (at create and at start).
endpoint_actor::behavior_type endpoint(endpoint_actor::stateful_pointer<endpoint_state> self, context ctx,
                                       endpoint_services services, schema::webhook_endpoint_record record);

} // namespace svc::actors
