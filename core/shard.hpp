#pragma once
// The shard of a team and how keys and ids name it: a cluster routes every
// request by shard, so any node must compute the same shard from a team id,
// an API key's secret or a resource id, in every release.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace svc::core {

/// Number of shards; fixed forever, since ids and keys carry the shard.
inline constexpr std::size_t shard_count = 256;

/// A shard number, 0..255.
using shard_id = std::uint8_t;

/// FNV-1a 64 over `bytes`, then the splitmix64 finaliser (raw FNV-1a clusters
/// similar team ids on few shards). Stable across nodes and releases.
std::uint64_t mix64(std::string_view bytes);

/// The shard of a team: `mix64(team_id) % shard_count`.
shard_id shard_of_team(std::string_view team_id);

/// The shard named by a key's lowercase hex secret: its first two hex digits;
/// nullopt if the secret is shorter than two or not all lowercase hex. Keys
/// minted before sharding name a random shard.
std::optional<shard_id> shard_of_key_secret(std::string_view hex_secret);

/// The shard named by a `prefix_<ULID>` id: the top 8 bits of the ULID's
/// random part; nullopt if `prefixed_id` has another shape. Ids minted before
/// sharding name a random shard.
std::optional<shard_id> shard_of_id(std::string_view prefixed_id);

/// Whether `id` is a node's name in a cluster: 1-32 of a-z, 0-9 and '-'
/// (`--node-id`, the node's certificate, etcd keys and values).
bool is_node_id(std::string_view id);

} // namespace svc::core
