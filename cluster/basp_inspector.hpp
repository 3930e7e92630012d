#pragma once
// Checks each frame of CAF's wire protocol (BASP, version 3 in CAF 0.17.6)
// that a peer sends, before CAF reads it. CAF itself trusts a connected
// peer with everything: a routed message may claim any node as its source
// (another member, or this node's own actors), a second handshake can
// redirect the traffic meant for another node, and a message may address
// any local actor by its sequential id. A frame passes only if it can come
// from the one node this connection's certificate proved:
// - first the handshake of the expected side, which names the peer's CAF
//   node id (the cluster gate binds that id to the proven node id);
// - then direct messages to the node actor, or answers to this node's own
//   requests (the response flag); by a receiver's name only to CAF's spawn
//   server, which CAF asks about each node it links to, and its reply to
//   the actor that asked (the one other actor a peer may address, seen in
//   this node's own frames to the peer);
// - monitors (CAF sends one for each actor of this node it first hears from,
//   to learn of its end) and down messages, from the bound node id;
// - heartbeats; a client handshake again (CAF repeats it) only with the
//   same node id.
// Routed messages (relayed for a third node) are refused: the cluster is a
// full mesh, so a legitimate one never arrives. Pure: bytes in, a verdict out.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace svc::cluster {

/// Which end of the connection the peer is: the one this node dialed (it
/// answers with CAF's server handshake) or the one that dialed this node
/// (it sends client handshakes).
enum class peer_end { dialed, dialing };

/// What to do with the bytes a peer sent that have not gone on yet.
struct basp_verdict {
  std::size_t pass = 0;  ///< bytes at the front, whole frames, that go on to CAF
  std::string refusal;   ///< non-empty: close the connection (after passing `pass`); why
  std::optional<std::string> handshake_node; ///< set once: the serialized CAF node id the handshake claims
};

class basp_inspector {
public:
  /// Frame layout of BASP 3: a 32-byte header (operation, two padding
  /// bytes, flags, payload length, operation data, source and destination
  /// actor ids; big-endian), then the payload.
  static constexpr std::size_t header_size = 32;

  /// `node_actor_id` is the actor peers may address; `node_id_size` the
  /// bytes of a serialized CAF node id (the prefix of handshake, monitor and
  /// down payloads); `max_payload` the largest payload taken.
  basp_inspector(peer_end end, uint64_t node_actor_id, std::size_t node_id_size, std::size_t max_payload);

  /// Looks at `pending`, every byte the peer sent that has not passed yet;
  /// the caller drops the verdict's `pass` bytes from its front before the
  /// next call. Once a verdict refused, every later one refuses.
  basp_verdict inspect(std::string_view pending);

  /// Reads the frames this node sends the peer, in order and in pieces as
  /// they go: the actor that asks the peer's spawn server may hear back.
  void note_outgoing(std::string_view bytes);

private:
  // Why the frame at the front of `frame` (header and whole payload) is refused; empty if it passes.
  std::string check(std::string_view frame, basp_verdict& verdict);

  peer_end end_;
  uint64_t node_actor_id_;
  std::size_t node_id_size_;
  std::size_t max_payload_;
  std::string bound_node_; ///< the node id the handshake claimed; empty before it
  std::string refused_;
  std::string outgoing_header_;    ///< the part of an outgoing header seen so far
  uint64_t outgoing_skip_ = 0;     ///< outgoing payload bytes still to pass over
  std::set<uint64_t> asked_spawn_server_; ///< local actors that asked the peer's spawn server
};

} // namespace svc::cluster
