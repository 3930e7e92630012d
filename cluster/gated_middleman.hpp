#pragma once
// CAF's middleman actor for the cluster, over the cluster gate: a connect
// to a peer becomes a local socket pair whose far end the gate dials over
// TLS, and publishing listens on the gate's local socket, which only the
// gate connects to. So every byte CAF exchanges with another node passed
// the gate's checks (cluster_gate.hpp), and CAF opens no port of its own.

#include <memory>

#include <caf/io/middleman_actor.hpp>

#include "cluster/cluster_gate.hpp"

namespace svc::cluster {

/// Spawns the middleman actor. Send it an exit before the actor system ends
/// (the system waits for it otherwise).
caf::io::middleman_actor spawn_gated_middleman(caf::actor_system& sys, std::weak_ptr<cluster_gate> gate);

} // namespace svc::cluster
