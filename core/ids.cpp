#include "core/ids.hpp"

#include <array>
#include <mutex>

#include <openssl/rand.h>

namespace svc::core {
namespace {

constexpr char crockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// The generator is process-wide so ids minted on different threads within one
// millisecond still sort in creation order.
struct ulid_generator {
  std::mutex mutex;
  uint64_t last_ms = 0;
  std::array<uint8_t, 10> random{};

  std::array<uint8_t, 16> next(uint64_t ms) {
    std::lock_guard<std::mutex> guard{mutex};
    if (ms <= last_ms) {
      // Same (or earlier, if the wall clock stepped back) millisecond: keep
      // the time and increment the random part so order is preserved.
      ms = last_ms;
      for (int i = 9; i >= 0 && ++random[i] == 0; --i) {}
    } else {
      last_ms = ms;
      RAND_bytes(random.data(), static_cast<int>(random.size()));
      random[0] &= 0x7f; // leave head-room so increments never wrap
    }
    std::array<uint8_t, 16> out{};
    for (int i = 0; i < 6; ++i)
      out[i] = static_cast<uint8_t>(ms >> (8 * (5 - i)));
    std::copy(random.begin(), random.end(), out.begin() + 6);
    return out;
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

} // namespace

std::string make_ulid(std::chrono::system_clock::time_point at) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
  return encode(generator().next(static_cast<uint64_t>(ms < 0 ? 0 : ms)));
}

std::string ulid_floor(std::chrono::system_clock::time_point at) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
  auto t = static_cast<uint64_t>(ms < 0 ? 0 : ms);
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
  std::string id;
  id.reserve(prefix.size() + 1 + ulid_length);
  id.append(prefix).push_back('_');
  id += make_ulid();
  return id;
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
