#pragma once
// Where a webhook may point: the syntax of a webhook URL, and the address
// ranges (loopback, private, ...) that deliveries must not reach (SSRF rule).
// The create-time check needs no DNS; the client checks every resolved address.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/asio/ip/address.hpp>

namespace svc::schema {

/// The name of the range `a` lies in if a webhook may not reach it
/// ("loopback", "private", "link-local", "cgnat", "unique-local",
/// "multicast", "unspecified", "broadcast", "ipv4-mapped"); nullopt if public.
std::optional<std::string> forbidden_range(const boost::asio::ip::address& a);

/// A parsed `https://` webhook URL.
struct webhook_url {
  std::string host;    ///< lowercase DNS name, IPv4 literal, or IPv6 literal without brackets
  uint16_t port = 443;
  std::string target;  ///< path and query as sent ("/" when the URL has none)
};

/// Parses a webhook URL with Boost.URL: `https` only (any case), RFC 3986
/// syntax (no raw `\\`, `{`, `|`...), no userinfo, no fragment, a DNS name
/// or strict dotted quad (never percent-decoded) or a bracketed IPv6 literal
/// (no zone), port 1..65535, at most 2048 printable ASCII characters. On
/// refusal returns nullopt and says why.
std::optional<webhook_url> parse_webhook_url(std::string_view url, std::string& why);

/// True if `u.host` is an IP literal rather than a DNS name.
bool is_ip_literal(const webhook_url& u);

/// Why an endpoint with this URL may not be created, judged without DNS:
/// an IP literal in a forbidden range, or `localhost` / `*.localhost`.
/// nullopt when acceptable or when `allow_private` is set.
std::optional<std::string> refused_at_create(const webhook_url& u, bool allow_private);

} // namespace svc::schema
