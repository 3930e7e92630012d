#pragma once
// What the cluster keeps in etcd, and how: each member under
// `/svc/nodes/<id>` (JSON, attached to the member's lease, so it vanishes
// when the node stops renewing it) and the shard map as one JSON value at
// `/svc/shards`, whose etcd mod revision is the map's revision; a move in
// progress under `/svc/moves/<shard>`, written by the shard's owner before
// it sends anything and erased once the move ended. Values read
// back are untrusted: anything malformed is refused, never half-used.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "actors/cluster_payloads.hpp"
#include "core/shard.hpp"

namespace svc::cluster {

inline constexpr std::string_view etcd_root = "/svc/";
inline constexpr std::string_view etcd_nodes_prefix = "/svc/nodes/";
inline constexpr std::string_view etcd_map_key = "/svc/shards";
inline constexpr std::string_view etcd_moves_prefix = "/svc/moves/";

/// A move of a shard from its owner to another node, as etcd records it.
struct recorded_move {
  std::string from;
  std::string to;
  bool operator==(const recorded_move& o) const { return from == o.from && to == o.to; }
};
/// The key of `shard`'s move.
std::string move_key(core::shard_id shard);
/// The value of a move's key.
std::string move_value(const recorded_move& m);
/// A move from its key's value; nullopt unless both ends are valid node ids.
std::optional<recorded_move> parse_move_value(std::string_view text);

/// The value of a member's key.
std::string node_value(const actors::node_info& n);
/// A member from its key's value; nullopt if malformed: an id that breaks
/// the node id rule, a cluster address that is not `IP:PORT`, or URLs that
/// are not absolute http(s) with a host and no user, query, fragment,
/// space or control character (they become the Location of redirects).
std::optional<actors::node_info> parse_node_value(std::string_view text);

/// The value of the map's key.
std::string map_value(const actors::shard_map& m);
/// The map from its key's value and mod revision; nullopt unless it names a
/// valid node id for every shard.
std::optional<actors::shard_map> parse_map_value(std::string_view text, int64_t revision);

/// The first map of a cluster: the shards dealt round-robin over `nodes`.
actors::shard_map bootstrap_map(const std::vector<std::string>& nodes);

} // namespace svc::cluster
