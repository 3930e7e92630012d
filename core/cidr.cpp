#include "core/cidr.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <charconv>
#include <string>

#include "core/comma_list.hpp"

namespace svc::core {
namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && s.front() == ' ')
    s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ')
    s.remove_suffix(1);
  return s;
}

bool is_v4_mapped(const ip_bytes& a) {
  for (int i = 0; i < 10; ++i)
    if (a[i] != 0)
      return false;
  return a[10] == 0xff && a[11] == 0xff;
}

} // namespace

bool cidr::contains(const ip_bytes& a) const {
  unsigned full = prefix / 8, rest = prefix % 8;
  for (unsigned i = 0; i < full; ++i)
    if (a[i] != base[i])
      return false;
  if (rest == 0)
    return true;
  auto mask = static_cast<uint8_t>(0xff << (8 - rest));
  return (a[full] & mask) == base[full];
}

std::optional<ip_bytes> parse_ip(std::string_view text) {
  if (text.empty() || text.size() > 45)
    return std::nullopt;
  std::string s{text};
  ip_bytes out{};
  in_addr v4{};
  if (::inet_pton(AF_INET, s.c_str(), &v4) == 1) {
    out[10] = out[11] = 0xff;
    auto* b = reinterpret_cast<const uint8_t*>(&v4.s_addr);
    std::copy(b, b + 4, out.begin() + 12);
    return out;
  }
  in6_addr v6{};
  if (::inet_pton(AF_INET6, s.c_str(), &v6) != 1)
    return std::nullopt;
  std::copy(v6.s6_addr, v6.s6_addr + 16, out.begin());
  return out;
}

std::optional<cidr> parse_cidr(std::string_view text) {
  auto slash = text.find('/');
  auto address = parse_ip(text.substr(0, slash));
  if (!address)
    return std::nullopt;
  bool v4 = text.substr(0, slash).find(':') == std::string_view::npos;
  unsigned max = v4 ? 32 : 128, prefix = max;
  if (slash != std::string_view::npos) {
    auto digits = text.substr(slash + 1);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), prefix);
    if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size() || prefix > max)
      return std::nullopt;
  }
  cidr c{*address, v4 ? 96 + prefix : prefix};
  // An IPv6 range must not reach into the IPv4-mapped block by accident of notation.
  if (!v4 && is_v4_mapped(*address) && c.prefix < 96)
    return std::nullopt;
  ip_bytes masked = c.base;
  for (unsigned bit = c.prefix; bit < 128; ++bit)
    masked[bit / 8] &= static_cast<uint8_t>(~(0x80 >> (bit % 8)));
  if (masked != c.base)
    return std::nullopt;
  return c;
}

std::optional<std::vector<cidr>> parse_cidr_list(std::string_view text) {
  if (trimmed(text).empty())
    return std::vector<cidr>{};
  return parse_comma_list(text, [](std::string_view item) { return parse_cidr(trimmed(item)); });
}

} // namespace svc::core
