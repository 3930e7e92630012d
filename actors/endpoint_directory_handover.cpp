#include "actors/endpoint_directory_parts.hpp"

#include <chrono>
#include <set>

#include "actors/recovery_batch.hpp"
#include "core/log.hpp"

namespace svc::actors {

// Takes `shard` over: its endpoints and its pending events, as a start does.
caf::result<int64_t> adopt_shard(endpoint_directory_self self, const context& ctx,
                                 const endpoint_services& services, core::shard_id shard) {
  auto began = ctx.clock->now();
  auto spawned = spawn_stored_endpoints(self, ctx, services, shard);
  if (!spawned)
    return std::move(spawned.error());
  int64_t events = 0;
  auto scan_failure = each_key_batch(ctx.tables->pending_events, shard, event_recovery_batch,
                                     [&](const std::vector<std::string>& ids) {
                                       events += fan_out_events(self, ctx, ids, shard);
                                     });
  if (scan_failure)
    return storage_failure("endpoint_directory", *scan_failure);
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(ctx.clock->now() - began);
  core::log_info("endpoint_directory", "shard " + std::to_string(shard) + ": started " + std::to_string(spawned->size())
                                        + " endpoints, fanned out " + std::to_string(events) + " pending events in "
                                        + std::to_string(took.count()) + " ms");
  return static_cast<int64_t>(spawned->size()) + events;
}

// Lets go of `shard`: its endpoints exit once their queued writes landed
// (their tasks and deadlines stay stored) and are forgotten.
caf::result<int64_t> release_shard(endpoint_directory_self self, core::shard_id shard) {
  std::set<caf::actor_addr> told;
  std::vector<std::string> ids;
  for (auto& [id, entry] : self->state.endpoints)
    if (core::shard_of_team(entry.team_id) == shard) {
      ids.push_back(id);
      if (entry.handle) {
        self->send(entry.handle, release_atom::value);
        told.insert(entry.handle.address());
      }
    }
  for (auto& id : ids)
    forget(self, id);
  core::log_info("endpoint_directory", "shard " + std::to_string(shard) + ": releasing " + std::to_string(told.size())
                                        + " endpoints");
  return self->state.releases.begin(self, std::move(told));
}

} // namespace svc::actors
