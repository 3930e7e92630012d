// Compiles: a function actor spawned with an argument passes the spawn guard.
#include <caf/all.hpp>

caf::behavior counting(int start) {
  return {[start](int x) { return start + x; }};
}

void spawn_it(caf::actor_system& sys) {
  sys.spawn(counting, 1);
}
