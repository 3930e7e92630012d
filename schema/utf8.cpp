#include "schema/utf8.hpp"

#include <algorithm>
#include <iterator>

namespace svc::schema {
namespace {

bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// Lead bytes `first`..`last` start a sequence of `extra` more bytes, the
// next of them in `lo`..`hi` and any others continuation bytes. That range is
// what rules out overlong forms (E0, F0), surrogates (ED) and code points
// above U+10FFFF (F4).
struct lead_bytes {
  unsigned char first, last;
  std::size_t extra;
  unsigned char lo, hi;
};

// The well-formed sequences: Unicode's Table 3-7, a row for each lead byte range.
constexpr lead_bytes well_formed[] = {
  {0x00, 0x7F, 0, 0x80, 0xBF},
  {0xC2, 0xDF, 1, 0x80, 0xBF},
  {0xE0, 0xE0, 2, 0xA0, 0xBF},
  {0xE1, 0xEC, 2, 0x80, 0xBF},
  {0xED, 0xED, 2, 0x80, 0x9F},
  {0xEE, 0xEF, 2, 0x80, 0xBF},
  {0xF0, 0xF0, 3, 0x90, 0xBF},
  {0xF1, 0xF3, 3, 0x80, 0xBF},
  {0xF4, 0xF4, 3, 0x80, 0x8F},
};

// Bytes of the well-formed sequence starting at `s[i]`, or 0 if there is none.
std::size_t sequence_length(std::string_view s, std::size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  auto row = std::find_if(std::begin(well_formed), std::end(well_formed),
                          [c](const lead_bytes& r) { return c >= r.first && c <= r.last; });
  if (row == std::end(well_formed) || s.size() - i - 1 < row->extra)
    return 0;
  for (std::size_t k = 1; k <= row->extra; ++k) {
    auto b = static_cast<unsigned char>(s[i + k]);
    if (k == 1 ? (b < row->lo || b > row->hi) : !is_continuation(b))
      return 0;
  }
  return row->extra + 1;
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
