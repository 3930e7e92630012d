#pragma once
// The registry actor: knows every live actor (kind, id, team, age) and asks
// each to describe itself for `/admin/actors`. CAF 0.17 keeps no such list.

#include <unordered_map>

#include "actors/messages.hpp"

namespace svc::actors {

struct registry_state {
  struct entry {
    std::string kind, id, team;
    caf::actor_addr addr;
    std::chrono::steady_clock::time_point since;
  };
  std::unordered_map<caf::actor_id, entry> live;
  static inline const char* name = "registry";
};

/// `describe_timeout`: how long a listing waits for each actor's description
/// (a busy actor shows "(no answer)" rather than holding up the listing).
registry_actor::behavior_type registry(registry_actor::stateful_pointer<registry_state> self,
                                       std::chrono::milliseconds describe_timeout);

} // namespace svc::actors
