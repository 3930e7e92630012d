#include "schema/utf8.hpp"

namespace svc::schema {
namespace {

bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

} // namespace

std::optional<std::size_t> utf8_length(std::string_view s) {
  std::size_t count = 0;
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    std::size_t extra = 0;
    // The second byte's range is what rules out overlong forms (E0, F0),
    // surrogates (ED) and code points above U+10FFFF (F4).
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80) {
      extra = 0;
    } else if (c >= 0xC2 && c <= 0xDF) {
      extra = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2;
      if (c == 0xE0)
        lo = 0xA0;
      if (c == 0xED)
        hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3;
      if (c == 0xF0)
        lo = 0x90;
      if (c == 0xF4)
        hi = 0x8F;
    } else {
      return std::nullopt;
    }
    if (s.size() - i - 1 < extra)
      return std::nullopt;
    for (std::size_t k = 1; k <= extra; ++k) {
      auto b = static_cast<unsigned char>(s[i + k]);
      if (k == 1 ? (b < lo || b > hi) : !is_continuation(b))
        return std::nullopt;
    }
    i += extra + 1;
    ++count;
  }
  return count;
}

std::string_view utf8_prefix(std::string_view s, std::size_t max_bytes) {
  if (s.size() <= max_bytes)
    return s;
  std::size_t end = max_bytes;
  while (end > 0 && is_continuation(static_cast<unsigned char>(s[end])))
    --end;
  return s.substr(0, end);
}

} // namespace svc::schema
