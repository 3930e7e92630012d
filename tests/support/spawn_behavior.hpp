#pragma once
// Spawns a test's stand-in actor from a behaviour made beforehand. The
// behaviour is the spawn's argument: a function actor spawned with none does
// not compile (actors/caf_spawn_guard.hpp).

#include <caf/all.hpp>

namespace svc::test {

/// An actor that runs `b` until it quits.
inline caf::actor spawn_behavior(caf::actor_system& sys, caf::behavior b) {
  return sys.spawn([](caf::behavior run) { return run; }, std::move(b));
}

} // namespace svc::test
