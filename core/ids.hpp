#pragma once
// Prefixed ULID identifiers (`img_01J...`): 48-bit millisecond time and 80
// random bits in Crockford base32, monotonic within one millisecond. A
// team's ids spend the top 8 random bits on the team's shard.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/shard.hpp"

namespace svc::core {

/// Number of characters of a ULID.
inline constexpr std::size_t ulid_length = 26;

/// Returns a new ULID. Thread-safe; ids from one process sort by creation.
std::string make_ulid();

/// Returns a new ULID for the given instant (tests and recovery use this).
std::string make_ulid(std::chrono::system_clock::time_point at);

/// The smallest ULID of the millisecond of `at` (random part zero): a key
/// bound for "ids minted at or after `at`". Does not touch the generator.
std::string ulid_floor(std::chrono::system_clock::time_point at);

/// Returns `prefix + "_" + ULID`, e.g. `make_id("req")` -> `req_01J...`.
std::string make_id(std::string_view prefix);

/// Returns `prefix + "_" + ULID` whose random part starts with the byte
/// `shard` (`shard_of_id` reads it back). Ids of one shard sort by creation
/// within one process; ids of different shards minted in the same
/// millisecond sort by shard, not by creation.
std::string make_id(std::string_view prefix, shard_id shard);

/// The first byte of the random part of `ulid`, which must satisfy `is_ulid`.
std::uint8_t ulid_random_head(std::string_view ulid);

/// True if `s` is 26 Crockford base32 characters that encode a 128-bit value.
bool is_ulid(std::string_view s);

/// True if `id` is `prefix_<ULID>` for exactly this prefix.
bool has_id_shape(std::string_view id, std::string_view prefix);

} // namespace svc::core
