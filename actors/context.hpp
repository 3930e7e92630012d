#pragma once
// What every Svc actor is spawned with: the shared, read-only parts of the
// runtime (configuration, clock, read access to the tables) and the handles of
// the store and the registry.

#include <functional>
#include <memory>

#include "actors/messages.hpp"
#include "core/clock.hpp"
#include "core/config.hpp"
#include "persistence/store_tables.hpp"

namespace svc::actors {

/// What renders output URLs outside a request (event payloads): the public
/// base URL (known once the listener is bound) and the URL-signing secret.
struct public_urls {
  std::string base_url;
  std::string url_secret;
};

/// In a cluster, whether this node holds a team (the node owns the shard of
/// its id). Empty: a single node holds every team. Safe from any thread.
using team_ownership = std::function<bool(const std::string& team_id)>;

struct context {
  const core::config* cfg = nullptr;             ///< outlives every actor
  std::shared_ptr<const core::clock> clock;      ///< wall time for records and deadlines
  const persistence::tables* tables = nullptr;   ///< lock-free reads
  store_actor store;                             ///< the one writer
  registry_actor registry;                       ///< the live-actor list
  std::shared_ptr<const public_urls> urls;       ///< for event payloads
  endpoint_directory_actor webhooks;              ///< where committed events are published
  team_ownership owns_team;                      ///< new teams get ids this node holds
};

/// Tells the registry about a newly spawned actor.
template <class Self>
void register_actor(Self* self, const context& ctx, std::string kind, std::string id, std::string team) {
  if (ctx.registry)
    self->send(ctx.registry, register_atom::value, std::move(kind), std::move(id), std::move(team), self->address());
}

/// Milliseconds from now until `deadline` (0 when past): the delay that re-arms a stored timer.
inline std::chrono::milliseconds until(const context& ctx, core::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - ctx.clock->now());
  return left.count() > 0 ? left : std::chrono::milliseconds{0};
}

} // namespace svc::actors
