#pragma once
// The name of every type an actor message carries, for CAF's serialisation:
// what lets a message leave this process (a cluster's nodes exchange them).
// Names end in a version, `_v1`: a type whose stored layout changes gets a
// new name, so a node that lacks it refuses to connect instead of dropping
// messages it cannot read.

#include <caf/actor_system_config.hpp>

namespace svc::actors {

/// Registers every type the interfaces of `messages.hpp` carry (besides
/// CAF's built-ins), and the actor handles that travel inside messages.
void add_message_types(caf::actor_system_config& cfg);

} // namespace svc::actors
