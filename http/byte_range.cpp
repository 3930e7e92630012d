#include "http/byte_range.hpp"
#include "http/header_text.hpp"

#include <charconv>
#include <string>

namespace svc::http {
namespace {

// Digits only (no sign, no spaces): `std::from_chars` alone would take a leading `-`.
std::optional<uint64_t> decimal(std::string_view s) {
  if (s.empty() || s.size() > 19)
    return std::nullopt;
  for (char c : s)
    if (c < '0' || c > '9')
      return std::nullopt;
  uint64_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if ((a[i] | 0x20) != (b[i] | 0x20))
      return false;
  return true;
}

} // namespace

range_request parse_range(std::optional<std::string_view> header, uint64_t size) {
  using k = range_request::kind;
  if (!header)
    return {};
  auto value = trimmed(*header);
  auto eq = value.find('=');
  if (eq == std::string_view::npos || !equals_ignoring_case(trimmed(value.substr(0, eq)), "bytes"))
    return {};
  auto spec = trimmed(value.substr(eq + 1));
  if (spec.find(',') != std::string_view::npos)
    return {};
  auto dash = spec.find('-');
  if (dash == std::string_view::npos)
    return {};
  auto first_text = trimmed(spec.substr(0, dash)), last_text = trimmed(spec.substr(dash + 1));
  if (first_text.empty()) { // suffix: the last n bytes
    auto n = decimal(last_text);
    if (!n)
      return {};
    if (*n == 0 || size == 0)
      return {k::unsatisfiable, {}};
    auto len = std::min(*n, size);
    return {k::partial, {size - len, size - 1}};
  }
  auto first = decimal(first_text);
  if (!first)
    return {};
  uint64_t last = size == 0 ? 0 : size - 1;
  if (!last_text.empty()) {
    auto l = decimal(last_text);
    if (!l || *l < *first)
      return {};
    last = std::min(*l, last);
  }
  if (*first >= size)
    return {k::unsatisfiable, {}};
  return {k::partial, {*first, last}};
}

std::string content_range(const byte_range& r, uint64_t size) {
  return "bytes " + std::to_string(r.first) + "-" + std::to_string(r.last) + "/" + std::to_string(size);
}

} // namespace svc::http
