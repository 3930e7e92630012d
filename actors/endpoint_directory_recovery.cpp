#include "actors/endpoint_directory_parts.hpp"

#include <chrono>

#include "actors/recovery_batch.hpp"
#include "actors/team_gate.hpp"
#include "core/log.hpp"

namespace svc::actors {

// Recovery is over once every endpoint loaded its tasks and every pending event is fanned out.
void check_recovered(endpoint_directory_self self, const context& ctx) {
  auto& st = self->state;
  if (!st.loading.empty() || st.fanning_out || st.recovery_began == core::time_point{})
    return;
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(ctx.clock->now() - st.recovery_began);
  st.recovery_began = {};
  if (st.recovered > 0)
    core::log_info("endpoint_directory", "recovered " + std::to_string(st.recovered)
                                          + " pending deliveries and events in " + std::to_string(took.count())
                                          + " ms");
}

// Fans out the pending events of `ids` (`pending_events` keys) whose team
// this node holds; with `shard`, only that shard's. How many.
int64_t fan_out_events(endpoint_directory_self self, const context& ctx, const std::vector<std::string>& ids,
                       std::optional<core::shard_id> shard) {
  int64_t fanned = 0;
  for (auto& id : ids) {
    auto event = ctx.tables->events.get(id);
    if (event.failed()) { // its pending row stays: the next start fans it out
      core::log_error("endpoint_directory", "event " + id + " not fanned out, the store failed: " + event.why());
    } else if (event.has_value()) {
      if (!holds_team(ctx, event->team_id) || (shard && core::shard_of_team(event->team_id) != *shard))
        continue; // another node's (its row here goes with the shard), or not this adoption's
      fan_out(self, ctx, *event);
      ++fanned;
    } else if (!shard) {
      persistence::write_batch batch;
      ctx.tables->pending_events.erase(batch, id);
      self->request(ctx.store, caf::infinite, commit_atom::value, std::move(batch))
        .then([](bool) {},
              [id](caf::error& err) { // harmless: the next start finds the row again
                core::log_warn("endpoint_directory", "pending row of " + id + " not erased: " + caf::to_string(err));
              });
    }
  }
  return fanned;
}

// Fans out the `pending_events` rows after `after` (one read transaction),
// then asks for the next batch.
void fan_out_pending(endpoint_directory_self self, const context& ctx, const std::string& after) {
  auto& st = self->state;
  auto pending = recovery_batch(self, ctx.tables->pending_events, after, event_recovery_batch, "endpoint_directory",
                                "pending events");
  if (!pending)
    return;
  st.recovered += fan_out_events(self, ctx, pending->keys, std::nullopt);
  if (continue_recovery(self, *pending))
    return;
  st.fanning_out = false;
  check_recovered(self, ctx);
}

// Spawns the stored endpoints of the teams this node holds that have no
// actor yet (each loads its pending tasks and re-arms their timers); with
// `shard`, only that shard's. The endpoints spawned, or the store's failure
// (after spawning those read).
caf::expected<std::vector<std::string>> spawn_stored_endpoints(endpoint_directory_self self, const context& ctx,
                                                               const endpoint_services& services,
                                                               std::optional<core::shard_id> shard) {
  std::vector<schema::webhook_endpoint_record> stored;
  persistence::scan_range range;
  range.shard = shard; // unset: every shard's
  auto endpoints_read = ctx.tables->webhook_endpoints.for_each(range, [&](const schema::webhook_endpoint_record& e) {
    if (holds_team(ctx, e.team_id) && (!shard || core::shard_of_team(e.team_id) == *shard)
        && !self->state.endpoints.count(e.id))
      stored.push_back(e);
    return true;
  });
  std::vector<std::string> spawned;
  for (auto& e : stored) {
    spawn_endpoint(self, ctx, services, e);
    spawned.push_back(e.id);
  }
  if (!endpoints_read.ok())
    return storage_failure("endpoint_directory", "endpoints not all started: " + endpoints_read.message);
  return spawned;
}

void recover(endpoint_directory_self self, const context& ctx, const endpoint_services& services) {
  self->state.recovery_began = ctx.clock->now();
  // A failed read is logged there; the endpoints read before it start.
  spawn_stored_endpoints(self, ctx, services, std::nullopt);
  for (auto& [id, entry] : self->state.endpoints)
    self->state.loading.insert(id);
  show_disabled(self); // this start's count, none included (not the last incarnation's)
  if (!self->state.endpoints.empty())
    core::log_info("endpoint_directory", std::to_string(self->state.endpoints.size()) + " endpoints started");
  self->send(self, recover_atom::value, std::string{});
}

} // namespace svc::actors
