#include "schema/utf8.hpp"

namespace svc::schema {
namespace {

bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// Bytes of the well-formed sequence starting at `s[i]`, or 0 if there is none.
std::size_t sequence_length(std::string_view s, std::size_t i) {
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
    return 0;
  }
  if (s.size() - i - 1 < extra)
    return 0;
  for (std::size_t k = 1; k <= extra; ++k) {
    auto b = static_cast<unsigned char>(s[i + k]);
    if (k == 1 ? (b < lo || b > hi) : !is_continuation(b))
      return 0;
  }
  return extra + 1;
}

} // namespace

std::optional<std::size_t> utf8_length(std::string_view s) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < s.size(); ++count) {
    auto n = sequence_length(s, i);
    if (n == 0)
      return std::nullopt;
    i += n;
  }
  return count;
}

std::string utf8_sanitized(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    if (auto n = sequence_length(s, i)) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out.append("\xEF\xBF\xBD"); // U+FFFD for each byte that starts no sequence
      ++i;
    }
  }
  return out;
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
