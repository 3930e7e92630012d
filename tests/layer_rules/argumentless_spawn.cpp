// Must not compile: a function actor spawned with no arguments (actors/caf_spawn_guard.hpp).
#include <caf/all.hpp>

caf::behavior idle() {
  return {[](int) {}};
}

void spawn_it(caf::actor_system& sys) {
  sys.spawn(idle);
}
