#pragma once
// Address ranges written `ADDRESS/PREFIX` (`10.0.0.0/8`, `fd00::/8`; a bare
// address is the range of itself), as the operator names the proxies whose
// forwarding headers are believed. Addresses are compared as 16 bytes, an
// IPv4 one in its IPv4-mapped IPv6 form, so `10.0.0.0/8` also matches the
// peer `::ffff:10.1.2.3` of a dual-stack socket.

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace svc::core {

/// An IPv6 address, or an IPv4 one mapped into IPv6 (`::ffff:a.b.c.d`).
using ip_bytes = std::array<uint8_t, 16>;

struct cidr {
  ip_bytes base{};     ///< the range's first address (bits past the prefix are zero)
  unsigned prefix = 0; ///< leading bits that must match, 0..128 (an IPv4 /n is 96 + n)

  /// True if `a` lies in the range.
  bool contains(const ip_bytes& a) const;
};

/// `a.b.c.d` or an IPv6 literal (without brackets or zone) as 16 bytes.
std::optional<ip_bytes> parse_ip(std::string_view text);

/// `ADDRESS[/PREFIX]`: nullopt if malformed, if the prefix is out of range
/// (32 for IPv4, 128 for IPv6) or if bits past the prefix are set (`10.1.0.0/8`
/// is refused as a likely typo rather than silently widened).
std::optional<cidr> parse_cidr(std::string_view text);

/// A comma-separated list of ranges (spaces around items allowed; empty: none).
std::optional<std::vector<cidr>> parse_cidr_list(std::string_view text);

} // namespace svc::core
