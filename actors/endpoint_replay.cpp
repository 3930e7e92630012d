#include "actors/endpoint_replay.hpp"

#include <set>

#include "actors/endpoint_deliveries.hpp"
#include "actors/endpoint_writes.hpp"
#include "core/ids.hpp"
#include "persistence/webhook_rows.hpp"
#include "schema/webhook_views.hpp"

namespace svc::actors {
namespace {

using schema::delivery_task;

// The events `replay` would enqueue: missed since `since` (and since the
// endpoint exists), subscribed, neither delivered nor pending; at most
// `max_replay_events`.
persistence::read_result<std::vector<std::string>> missed_events(endpoint_self self, const context& ctx,
                                                                 core::time_point since) {
  auto& st = self->state;
  auto& r = st.record;
  std::set<std::string> pending;
  for (auto& [id, task] : st.tasks)
    pending.insert(task.event_id);
  auto from = std::max(since, r.created_at);
  persistence::scan_range range;
  range.prefix = r.team_id + "/";
  range.start_after = r.team_id + "/evt_" + core::ulid_floor(from - std::chrono::milliseconds{1});
  bool more = false;
  auto keys = ctx.tables->events_by_team.keys(range, static_cast<std::size_t>(max_replay_events) * 4, more);
  if (keys.failed())
    return keys;
  std::vector<std::string> missed;
  for (auto& key : *keys) {
    if (static_cast<int64_t>(missed.size()) == max_replay_events)
      break;
    auto event_id = key.substr(range.prefix.size());
    if (pending.count(event_id))
      continue;
    auto delivered = ctx.tables->delivered_events.get(persistence::owned_key(r.id, event_id));
    auto event = ctx.tables->events.get(event_id);
    if (delivered.failed() || event.failed())
      return decltype(keys)::error(delivered.failed() ? delivered.why() : event.why());
    if (delivered.has_value() || event.absent() || event->synthetic || event->created_at < from
        || !schema::subscribes(r, event->type))
      continue;
    missed.push_back(std::move(event_id));
  }
  return missed;
}

// One task per missed event, committed, then scheduled; `promise` gets
// their count (or the store's error). The tasks join memory at once, so a
// replay arriving meanwhile does not enqueue them twice, and leave it if the
// commit fails.
void enqueue_replay(endpoint_self self, const context& ctx, const endpoint_services& services,
                    const std::vector<std::string>& events, caf::typed_response_promise<int64_t> promise) {
  auto& st = self->state;
  auto now = ctx.clock->now();
  endpoint_write write;
  std::vector<delivery_task> tasks;
  for (auto& event_id : events) {
    delivery_task task{core::make_ulid(), st.record.id, event_id, 1, now};
    persistence::put_task(*ctx.tables, write.rows, task);
    st.tasks.emplace(task.id, task);
    tasks.push_back(std::move(task));
  }
  write.after = [=]() mutable {
    for (auto& t : tasks)
      if (self->state.tasks.count(t.id))
        schedule(self, ctx, services, t);
    promise.deliver(static_cast<int64_t>(tasks.size()));
  };
  write.refused = [=](const caf::error& err) mutable {
    for (auto& t : tasks)
      self->state.tasks.erase(t.id);
    promise.deliver(err);
  };
  write_in_order(self, ctx, std::move(write));
}

} // namespace

// A replay is paid for from the team's `webhook_replay_events` bucket, one
// token per event it enqueues (into debt if it must), and refused while that
// bucket is empty: replays cannot turn the service into a reflector that
// re-sends the same events at a receiver without bound.
caf::result<int64_t> replay(endpoint_self self, const context& ctx, const endpoint_services& services,
                            core::time_point since) {
  auto& r = self->state.record;
  if (!r.is_active)
    return make_domain_error(schema::error_code::invalid_state, "id",
                             {{"kind", "webhook endpoint"}, {"id", r.id}, {"state", "disabled"}, {"action", "replay"}});
  auto missed = missed_events(self, ctx, since);
  if (missed.failed())
    return storage_failure(endpoint_component(self), missed.why());
  auto events = std::move(*missed);
  auto promise = self->make_response_promise<int64_t>();
  if (events.empty() || !services.buckets) {
    enqueue_replay(self, ctx, services, events, promise);
    return promise;
  }
  // `await`: no other message changes the tasks between the scan and the enqueue.
  self
    ->request(services.buckets, ctx.cfg->request_deadline, charge_atom::value, r.team_id,
              schema::bucket_class::webhook_replay_events, static_cast<int64_t>(events.size()))
    .await(
      [=](const rate_decision& d) mutable {
        if (d.allowed)
          return enqueue_replay(self, ctx, services, events, promise);
        promise.deliver(make_domain_error(schema::error_code::too_many_requests, "",
                                          {{"bucket", d.bucket}, {"seconds", std::to_string(d.retry_after)}}));
      },
      [=](caf::error& err) mutable { promise.deliver(std::move(err)); });
  return promise;
}

} // namespace svc::actors
