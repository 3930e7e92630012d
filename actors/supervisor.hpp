#pragma once
// The supervisor of one long-lived actor (a directory, the store, the
// mailer...). Every other actor and the HTTP layer hold the supervisor's
// handle, never the supervised actor's: the supervisor forwards each message
// to the current incarnation, and when that incarnation dies of anything but
// a shutdown it spawns a new one, whose start re-runs its recovery from LMDB
// (a directory respawns its children there). So a handle taken at start stays
// good for the life of the process.

#include <functional>
#include <string>

#include <caf/all.hpp>

namespace svc::actors {

/// Spawns one incarnation of the supervised actor.
using incarnation_factory = std::function<caf::actor(caf::actor_system&)>;

struct supervisor_state {
  caf::actor incarnation;           ///< where messages go; null while a respawn waits
  uint64_t restarts = 0;            ///< incarnations spawned after the first
  caf::timestamp last_spawn{};      ///< when the current incarnation started
  std::chrono::milliseconds backoff{0}; ///< wait before the next respawn
  int quick_deaths = 0;             ///< deaths in a row, each soon after its spawn
  bool stopping = false;            ///< shutting down: the incarnation's exit is the last
  static inline const char* name = "supervisor";
};

/// Forwards every message to the incarnation; respawns it when it dies.
caf::behavior supervisor(caf::stateful_actor<supervisor_state>* self, std::string kind,
                         incarnation_factory spawn_incarnation);

/// Spawns `kind`'s supervisor and returns it as the typed handle everyone holds.
template <class Handle>
Handle supervise(caf::actor_system& sys, std::string kind, std::function<Handle(caf::actor_system&)> spawn) {
  auto untyped = [spawn = std::move(spawn)](caf::actor_system& s) { return caf::actor_cast<caf::actor>(spawn(s)); };
  return caf::actor_cast<Handle>(sys.spawn(supervisor, std::move(kind), incarnation_factory{std::move(untyped)}));
}

} // namespace svc::actors
