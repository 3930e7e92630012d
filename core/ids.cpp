#include "core/ids.hpp"

#include <array>
#include <mutex>

#include <openssl/rand.h>

namespace svc::core {
namespace {

constexpr char crockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// One monotonic sequence: the last millisecond and random part it gave. Its
// first `fixed` random bytes never change (a shard byte, or none).
struct ulid_sequence {
  uint64_t last_ms = 0;
  std::array<uint8_t, 10> random{};

  std::array<uint8_t, 16> next(uint64_t ms, std::size_t fixed) {
    if (ms <= last_ms) {
      // Same (or earlier, if the wall clock stepped back) millisecond: keep
      // the time and increment the random part so order is preserved.
      ms = last_ms;
      for (auto i = random.size(); i-- > fixed && ++random[i] == 0;) {}
    } else {
      last_ms = ms;
      RAND_bytes(random.data() + fixed, static_cast<int>(random.size() - fixed));
      random[fixed] &= 0x7f; // leave head-room so increments never carry into the fixed bytes
    }
    std::array<uint8_t, 16> out{};
    for (int i = 0; i < 6; ++i)
      out[i] = static_cast<uint8_t>(ms >> (8 * (5 - i)));
    std::copy(random.begin(), random.end(), out.begin() + 6);
    return out;
  }
};

// The generator is process-wide so ids minted on different threads within one
// millisecond still sort in creation order: one sequence for ids of no team,
// and one per shard, since ids of one shard (so of one team) must sort among
// themselves whatever other shards minted meanwhile.
struct ulid_generator {
  std::mutex mutex;
  ulid_sequence plain;
  std::array<ulid_sequence, shard_count> sharded;

  ulid_generator() {
    for (std::size_t s = 0; s < shard_count; ++s)
      sharded[s].random[0] = static_cast<uint8_t>(s);
  }

  std::array<uint8_t, 16> next(uint64_t ms) {
    std::lock_guard<std::mutex> guard{mutex};
    return plain.next(ms, 0);
  }

  std::array<uint8_t, 16> next(uint64_t ms, shard_id shard) {
    std::lock_guard<std::mutex> guard{mutex};
    return sharded[shard].next(ms, 1);
  }
};

ulid_generator& generator() {
  static ulid_generator instance;
  return instance;
}

std::string encode(const std::array<uint8_t, 16>& bytes) {
  // 128 bits as 26 base32 digits: the first digit carries the top 3 bits.
  std::string out(ulid_length, '0');
  unsigned __int128 v = 0;
  for (auto b : bytes)
    v = (v << 8) | b;
  for (int i = 25; i >= 0; --i) {
    out[i] = crockford[static_cast<unsigned>(v & 31)];
    v >>= 5;
  }
  return out;
}

uint64_t now_ms(std::chrono::system_clock::time_point at) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
  return static_cast<uint64_t>(ms < 0 ? 0 : ms);
}

std::string prefixed(std::string_view prefix, const std::string& ulid) {
  std::string id;
  id.reserve(prefix.size() + 1 + ulid_length);
  id.append(prefix).push_back('_');
  id += ulid;
  return id;
}

} // namespace

std::string make_ulid(std::chrono::system_clock::time_point at) {
  return encode(generator().next(now_ms(at)));
}

std::string ulid_floor(std::chrono::system_clock::time_point at) {
  auto t = now_ms(at);
  std::array<uint8_t, 16> bytes{};
  for (int i = 5; i >= 0; --i) {
    bytes[static_cast<std::size_t>(i)] = static_cast<uint8_t>(t & 0xFF);
    t >>= 8;
  }
  return encode(bytes);
}

std::string make_ulid() {
  return make_ulid(std::chrono::system_clock::now());
}

std::string make_id(std::string_view prefix) {
  return prefixed(prefix, make_ulid());
}

std::string make_id(std::string_view prefix, shard_id shard) {
  return prefixed(prefix, encode(generator().next(now_ms(std::chrono::system_clock::now()), shard)));
}

std::uint8_t ulid_random_head(std::string_view ulid) {
  // The random part is the low 80 of the 128 bits: its head is bits 72..79.
  unsigned __int128 v = 0;
  for (char c : ulid)
    v = (v << 5) | static_cast<unsigned>(std::string_view{crockford}.find(c));
  return static_cast<std::uint8_t>(v >> 72);
}

bool is_ulid(std::string_view s) {
  if (s.size() != ulid_length || s[0] > '7')
    return false;
  for (char c : s)
    if (std::string_view{crockford}.find(c) == std::string_view::npos)
      return false;
  return true;
}

bool has_id_shape(std::string_view id, std::string_view prefix) {
  return id.size() == prefix.size() + 1 + ulid_length && id.substr(0, prefix.size()) == prefix
         && id[prefix.size()] == '_' && is_ulid(id.substr(prefix.size() + 1));
}

} // namespace svc::core
