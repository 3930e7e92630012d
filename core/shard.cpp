#include "core/shard.hpp"

#include <algorithm>

#include "core/ids.hpp"

namespace svc::core {
namespace {

constexpr std::uint64_t fnv_offset = 14695981039346656037ull;
constexpr std::uint64_t fnv_prime = 1099511628211ull;

int lower_hex_value(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1;
}

} // namespace

std::uint64_t mix64(std::string_view bytes) {
  std::uint64_t h = fnv_offset;
  for (char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= fnv_prime;
  }
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

shard_id shard_of_team(std::string_view team_id) {
  return static_cast<shard_id>(mix64(team_id) % shard_count);
}

std::optional<shard_id> shard_of_key_secret(std::string_view hex_secret) {
  if (hex_secret.size() < 2)
    return std::nullopt;
  for (char c : hex_secret)
    if (lower_hex_value(c) < 0)
      return std::nullopt;
  return static_cast<shard_id>(lower_hex_value(hex_secret[0]) * 16 + lower_hex_value(hex_secret[1]));
}

std::optional<shard_id> shard_of_id(std::string_view prefixed_id) {
  if (prefixed_id.size() < ulid_length + 2)
    return std::nullopt;
  auto prefix = prefixed_id.substr(0, prefixed_id.size() - ulid_length - 1);
  if (!has_id_shape(prefixed_id, prefix))
    return std::nullopt;
  return ulid_random_head(prefixed_id.substr(prefix.size() + 1));
}

bool is_node_id(std::string_view id) {
  return !id.empty() && id.size() <= 32 && std::all_of(id.begin(), id.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-';
  });
}

} // namespace svc::core
