#pragma once
// One connection of the cluster gate: TLS to a peer, joined to one local
// socket CAF reads and writes, with the peer's frames checked on their way
// in (basp_inspector.hpp). Every handler runs on the connection's strand.

#include <cstdint>
#include <memory>
#include <string>

#include "cluster/gate_state.hpp"

namespace svc::cluster {

/// Takes a peer that dialed this node: TLS handshake, its node proven by
/// its certificate, then a connection to CAF's local socket.
void start_accepted(const state_ptr& gate, uint64_t id, tcp::socket socket);

/// Takes a peer this node dialed, which must prove to be `expected_node`,
/// joined to `caf_end` (closed here on any failure).
void start_dialed(const state_ptr& gate, uint64_t id, tcp::socket socket, std::string expected_node, int caf_end);

/// Closes `connection` on its own strand.
void stop(const std::shared_ptr<gate_connection>& connection);

} // namespace svc::cluster
