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
#include <functional>
#include <map>
#include <vector>

#include "actors/context.hpp"

namespace svc::actors {

/// What endpoints need besides the context; owned by the runtime.
struct endpoint_services {
  webhook_transport* transport = nullptr;
  mailer_actor mailer;                 ///< may be invalid (tests): no mail
  endpoint_directory_actor directory;   ///< told about changes; publishes endpoint_disabled
  bucket_directory_actor buckets;      ///< charged one `webhook_replay_events` token per replayed event; may be invalid (tests): no limit
};

/// Attempts one endpoint runs at the same time.
inline constexpr std::size_t max_parallel_deliveries = 16;

/// Events one replay enqueues at most.
inline constexpr int64_t max_replay_events = 10000;

/// The `User-Agent` of every delivery.
inline constexpr std::string_view webhook_user_agent = "Svc-Webhooks/1.0";

/// A write of the endpoint (see endpoint_writes.hpp). A background write
/// (bookkeeping: delivery rows, tasks, counters) is tried until it lands; a
/// client's write is answered with the store's error and dropped if its
/// commit fails, and its change reaches memory only once it is durable.
struct endpoint_write {
  persistence::write_batch rows;  ///< everything but the record, which each commit puts as it then is
  std::function<void(schema::webhook_endpoint_record&)> change; ///< a client's change of the record
  std::function<void()> after;    ///< runs once durable (answers, notifications, timers)
  std::function<void(const caf::error&)> refused; ///< set for a client's write: its commit failed
  bool erases_record = false;     ///< the delete: no record put with it or after it
};

/// What a delivery row and the delivery latency need of an event, kept while
/// its attempt is in flight (no second read of the event).
struct attempted_event {
  std::string type;
  core::time_point created_at;
};

struct endpoint_state {
  schema::webhook_endpoint_record record;          ///< as committed, plus background changes being committed
  std::map<std::string, schema::delivery_task> tasks; ///< every pending task, by id
  std::deque<std::string> ready;                   ///< due tasks waiting for a free slot
  std::map<std::string, attempted_event> attempting; ///< by task id, while its attempt is in flight
  std::size_t in_flight = 0;
  bool window_armed = false;                       ///< a disable-window check is scheduled
  uint64_t attempts = 0, failures = 0;             ///< since start, for `describe`
  std::deque<endpoint_write> queued;               ///< writes waiting for the commit in flight
  std::vector<endpoint_write> committing;          ///< the writes of the commit in flight
  bool record_changed = false;                     ///< memory's record has changes not yet committed
  bool committing_record_change = false;           ///< the commit in flight carries such changes
  std::chrono::milliseconds pause{0};              ///< before retrying a failed commit (doubles)
  bool retry_armed = false;                        ///< a retry of a failed commit is scheduled
  bool erased = false;                             ///< the delete landed: the actor is exiting
  bool releasing = false;                          ///< its shard leaves this node: exits once its writes landed
  static inline const char* name = "webhook_endpoint";
};

using endpoint_self = endpoint_actor::stateful_pointer<endpoint_state>;

/// Spawned by the endpoint directory for each endpoint (at create and at start).
endpoint_actor::behavior_type endpoint(endpoint_self self, context ctx, endpoint_services services,
                                       schema::webhook_endpoint_record record);

} // namespace svc::actors
