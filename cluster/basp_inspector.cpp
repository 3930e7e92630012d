#include "cluster/basp_inspector.hpp"

#include <algorithm>

#include <caf/atom.hpp>

namespace svc::cluster {
namespace {

// BASP 3's operations (caf/io/basp/message_type.hpp).
enum operation : uint8_t {
  server_handshake = 0x00,
  client_handshake = 0x01,
  direct_message = 0x02,
  routed_message = 0x03,
  monitor_message = 0x04,
  down_message = 0x05,
  heartbeat = 0x06,
};

// Header flags and the answer bit of a message id (caf/io/basp/header.hpp, caf/message_id.hpp).
constexpr uint8_t named_receiver_flag = 0x01;
constexpr uint64_t response_flag = 0x8000000000000000ULL;
// The one receiver a peer may name: CAF asks each new node's spawn server
// for its "info" (basp_broker::learned_new_node). It spawns no actor type
// here (svcd registers none), and the config server it names is reachable
// only by id, which this inspector refuses.
constexpr uint64_t spawn_server = static_cast<uint64_t>(caf::atom("SpawnServ"));

uint64_t big_endian(std::string_view bytes, std::size_t at, std::size_t width) {
  uint64_t v = 0;
  for (std::size_t i = 0; i < width; ++i)
    v = (v << 8) | static_cast<uint8_t>(bytes[at + i]);
  return v;
}

struct header {
  uint8_t op;
  uint8_t flags;
  uint32_t payload_len;
  uint64_t operation_data;
  uint64_t source_actor;
  uint64_t dest_actor;
};

header parse_header(std::string_view b) {
  return {static_cast<uint8_t>(b[0]), static_cast<uint8_t>(b[3]), static_cast<uint32_t>(big_endian(b, 4, 4)),
          big_endian(b, 8, 8), big_endian(b, 16, 8), big_endian(b, 24, 8)};
}

} // namespace

basp_inspector::basp_inspector(peer_end end, uint64_t node_actor_id, std::size_t node_id_size,
                               std::size_t max_payload)
  : end_{end}, node_actor_id_{node_actor_id}, node_id_size_{node_id_size}, max_payload_{max_payload} {}

basp_verdict basp_inspector::inspect(std::string_view pending) {
  basp_verdict verdict;
  if (!refused_.empty()) {
    verdict.refusal = refused_;
    return verdict;
  }
  while (pending.size() - verdict.pass >= header_size) {
    auto rest = pending.substr(verdict.pass);
    auto h = parse_header(rest);
    if (h.payload_len > max_payload_) {
      refused_ = "a frame of " + std::to_string(h.payload_len) + " bytes, past the limit";
      break;
    }
    std::size_t size = header_size + h.payload_len;
    if (rest.size() < size)
      break; // the rest of this frame is still on its way
    if (auto why = check(rest.substr(0, size), verdict); !why.empty()) {
      refused_ = std::move(why);
      break;
    }
    verdict.pass += size;
  }
  verdict.refusal = refused_;
  return verdict;
}

void basp_inspector::note_outgoing(std::string_view bytes) {
  constexpr std::size_t most_askers = 1024; // one per node CAF links to; more is no CAF of ours
  while (!bytes.empty()) {
    if (outgoing_skip_ > 0) {
      auto n = static_cast<std::size_t>(std::min<uint64_t>(outgoing_skip_, bytes.size()));
      outgoing_skip_ -= n;
      bytes.remove_prefix(n);
      continue;
    }
    auto n = std::min(header_size - outgoing_header_.size(), bytes.size());
    outgoing_header_.append(bytes.substr(0, n));
    bytes.remove_prefix(n);
    if (outgoing_header_.size() < header_size)
      return;
    auto h = parse_header(outgoing_header_);
    outgoing_header_.clear();
    outgoing_skip_ = h.payload_len;
    if (h.op == direct_message && (h.flags & named_receiver_flag) && h.dest_actor == spawn_server
        && asked_spawn_server_.size() < most_askers)
      asked_spawn_server_.insert(h.source_actor);
  }
}

std::string basp_inspector::check(std::string_view frame, basp_verdict& verdict) {
  auto h = parse_header(frame);
  auto payload = frame.substr(header_size);
  auto node_in_payload = [&] { return payload.substr(0, node_id_size_); };
  bool names_bound_node = payload.size() >= node_id_size_ && node_in_payload() == bound_node_;
  if (bound_node_.empty()) {
    auto expected = end_ == peer_end::dialed ? server_handshake : client_handshake;
    if (h.op != expected)
      return "its first frame is not the handshake of the side it is on";
    if (payload.size() < node_id_size_)
      return "a handshake too short to name a node";
    bound_node_ = std::string{node_in_payload()};
    verdict.handshake_node = bound_node_;
    return {};
  }
  switch (h.op) {
    case client_handshake:
      if (end_ == peer_end::dialing && names_bound_node)
        return {};
      return "a second handshake that names another node, or from the side that was dialed";
    case direct_message:
      if (h.flags & named_receiver_flag)
        return h.dest_actor == spawn_server ? std::string{} : "a message to an actor by a name other than SpawnServ";
      if (h.dest_actor != node_actor_id_ && !(h.operation_data & response_flag)
          && !asked_spawn_server_.count(h.dest_actor))
        return "a message to actor " + std::to_string(h.dest_actor) + ", not the node actor, that answers no request";
      return {};
    case monitor_message: // CAF asks for every actor it made a proxy of (any sender of a message)
      return names_bound_node ? std::string{} : "a monitor from another node";
    case down_message:
      return names_bound_node ? std::string{} : "a down message from another node";
    case heartbeat:
      return {};
    case routed_message:
      return "a message relayed for another node";
    default:
      return "an operation this protocol version does not have, or a handshake again";
  }
}

} // namespace svc::cluster
