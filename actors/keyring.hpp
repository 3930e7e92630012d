#pragma once
// The keyring actor: issues and rotates API keys. Rotation gives the old key
// `deactivate_at = now + key_grace`; that deadline is stored in the key's
// record and armed as a timer, re-armed from the records at start, so the
// grace ends on time across restarts. (Authentication checks the deadline
// itself too; the timer makes the deactivation a stored fact.)

#include <set>

#include "actors/context.hpp"

namespace svc::actors {

struct keyring_state {
  std::set<std::string> pending_expiries; ///< keys whose grace timer is armed
  uint64_t issued = 0;
  static inline const char* name = "keyring";
};

keyring_actor::behavior_type keyring(keyring_actor::stateful_pointer<keyring_state> self, context ctx);

} // namespace svc::actors
