#include "schema/address_policy.hpp"

#include <cctype>

#include "core/uri.hpp"

namespace svc::schema {
namespace {

namespace ip = boost::asio::ip;
namespace urls = boost::urls;

constexpr std::size_t max_url_length = 2048;

std::optional<std::string> v4_range(uint32_t a) {
  auto in = [a](uint32_t net, int bits) { return (a >> (32 - bits)) == (net >> (32 - bits)); };
  if (a == 0xFFFFFFFFu)
    return "broadcast";
  if (in(0x00000000u, 8))
    return "unspecified";
  if (in(0x7F000000u, 8))
    return "loopback";
  if (in(0x0A000000u, 8) || in(0xAC100000u, 12) || in(0xC0A80000u, 16))
    return "private";
  if (in(0xA9FE0000u, 16))
    return "link-local";
  if (in(0x64400000u, 10))
    return "cgnat";
  if (in(0xE0000000u, 4))
    return "multicast";
  if (in(0xC0000000u, 24))
    return "ietf-protocol"; // 192.0.0.0/24: protocol assignments (NAT64 discovery, DS-Lite)
  if (in(0xC6120000u, 15))
    return "benchmarking"; // 198.18.0.0/15: inter-network tests, often routed inside a site
  if (in(0xF0000000u, 4))
    return "reserved"; // 240.0.0.0/4
  return std::nullopt;
}

// The IPv4 address carried in bytes [at, at+4) of an IPv6 address.
uint32_t embedded_v4(const ip::address_v6::bytes_type& b, std::size_t at) {
  return (uint32_t{b[at]} << 24) | (uint32_t{b[at + 1]} << 16) | (uint32_t{b[at + 2]} << 8) | uint32_t{b[at + 3]};
}

std::optional<std::string> v6_range(const ip::address_v6& a) {
  const auto b = a.to_bytes();
  if (a.is_unspecified())
    return "unspecified";
  if (a.is_loopback())
    return "loopback";
  if (a.is_v4_mapped())
    return "ipv4-mapped";
  if (b[0] == 0xFE && (b[1] & 0xC0) == 0x80)
    return "link-local";
  if ((b[0] & 0xFE) == 0xFC)
    return "unique-local";
  if (b[0] == 0xFF)
    return "multicast";
  if (b[0] == 0xFE && (b[1] & 0xC0) == 0xC0)
    return "site-local"; // fec0::/10, deprecated but still routed inside some sites
  // Forms that reach an IPv4 host through a translator or tunnel: a gateway
  // would carry the request to whatever IPv4 address they embed.
  auto zero_prefix = [&b](std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
      if (b[i] != 0)
        return false;
    return true;
  };
  if (zero_prefix(12))
    return "ipv4-compatible"; // ::/96 (its non-zero v4 part); :: and ::1 are caught above
  if (b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xFF && b[3] == 0x9B &&
      ((b[4] == 0 && b[5] == 0 && b[6] == 0 && b[7] == 0 && b[8] == 0 && b[9] == 0 && b[10] == 0 && b[11] == 0) ||
       (b[4] == 0x00 && b[5] == 0x01)))
    return "nat64"; // 64:ff9b::/96 and the local-use 64:ff9b:1::/48
  if (b[0] == 0x20 && b[1] == 0x02) {
    // 6to4 (2002::/16) relays to the IPv4 address in bytes 2..5: refused
    // outright, and the embedded address is named when it is itself refused.
    if (auto inner = v4_range(embedded_v4(b, 2)))
      return "6to4 of " + *inner;
    return "6to4";
  }
  if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x00 && b[3] == 0x00)
    return "teredo"; // 2001::/32
  return std::nullopt;
}

bool all_digits(std::string_view s) {
  if (s.empty())
    return false;
  for (char c : s)
    if (c < '0' || c > '9')
      return false;
  return true;
}

// Strict dotted quad: four decimal parts 0..255 without leading zeros (so
// that no resolver reads an octal or shortened form differently).
bool strict_ipv4(std::string_view s) {
  int parts = 0;
  while (true) {
    auto dot = s.find('.');
    auto part = s.substr(0, dot);
    if (!all_digits(part) || part.size() > 3 || (part.size() > 1 && part[0] == '0'))
      return false;
    if (std::stoi(std::string(part)) > 255)
      return false;
    ++parts;
    if (dot == std::string_view::npos)
      break;
    s.remove_prefix(dot + 1);
  }
  return parts == 4;
}

// A DNS name in lowercase: labels of [a-z0-9-], 1..63 long, no hyphen at
// either end, 253 characters at most, and a top label starting with a letter
// (which rules out numeric forms like `0x7f000001` or `127.1`).
bool valid_dns_name(std::string_view s, std::string& why) {
  if (s.size() > 253) {
    why = "host name is longer than 253 characters";
    return false;
  }
  std::string_view last;
  while (true) {
    auto dot = s.find('.');
    auto label = s.substr(0, dot);
    if (label.empty() || label.size() > 63) {
      why = "host name has an empty or over-long label";
      return false;
    }
    for (char c : label)
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
        why = "host name has a character other than letters, digits, '-' and '.'";
        return false;
      }
    if (label.front() == '-' || label.back() == '-') {
      why = "host name label starts or ends with '-'";
      return false;
    }
    last = label;
    if (dot == std::string_view::npos)
      break;
    s.remove_prefix(dot + 1);
  }
  if (!(last[0] >= 'a' && last[0] <= 'z')) {
    why = "host is neither a valid IPv4 address nor a DNS name";
    return false;
  }
  return true;
}

bool iequals_prefix(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size())
    return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i])
      return false;
  return true;
}

} // namespace

std::optional<std::string> forbidden_range(const boost::asio::ip::address& a) {
  if (a.is_v4())
    return v4_range(a.to_v4().to_uint());
  return v6_range(a.to_v6());
}

std::optional<webhook_url> parse_webhook_url(std::string_view url, std::string& why) {
  if (url.size() > max_url_length) {
    why = "URL is longer than 2048 characters";
    return std::nullopt;
  }
  for (char ch : url) {
    auto c = static_cast<unsigned char>(ch);
    if (c <= 0x20 || c == 0x7F) {
      why = "URL contains whitespace or a control character";
      return std::nullopt;
    }
    if (c >= 0x80) {
      why = "URL contains a non-ASCII character (percent-encode it)";
      return std::nullopt;
    }
  }
  if (!iequals_prefix(url, "https://")) {
    why = "only https:// URLs are accepted";
    return std::nullopt;
  }
  auto parsed = core::parse_uri(url);
  if (!parsed) {
    why = "URL is malformed (RFC 3986: a bracketed IPv6 host, a numeric port, and `\\`, `{`, `|` and the like "
          "percent-encoded)";
    return std::nullopt;
  }
  auto& u = *parsed;
  if (u.has_fragment()) {
    why = "URL must not have a fragment";
    return std::nullopt;
  }
  if (u.has_userinfo()) {
    why = "URL must not contain user information";
    return std::nullopt;
  }
  webhook_url out;
  // The host as written, lowercased: never percent-decoded, so `%2e` and
  // the like stay characters no DNS name or address holds.
  std::string_view host = u.host_type() == urls::host_type::ipv6 ? u.encoded_host_address() : u.encoded_host();
  for (char c : host)
    out.host += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  switch (u.host_type()) {
  case urls::host_type::ipv6:
    break; // Boost.URL checked it; zone ids (`%25eth0`) it refuses
  case urls::host_type::ipvfuture:
    why = "host is not a valid IPv6 address";
    return std::nullopt;
  default: {
    if (out.host.empty()) {
      why = "URL has no host";
      return std::nullopt;
    }
    // Boost.URL reads `127.000.0.1` as a name: the strict dotted quad is ours.
    bool dotted_digits = out.host.find_first_not_of("0123456789.") == std::string::npos;
    if (dotted_digits ? !strict_ipv4(out.host) : !valid_dns_name(out.host, why)) {
      if (dotted_digits)
        why = "host is not a valid IPv4 address";
      return std::nullopt;
    }
  }
  }
  if (u.has_port()) {
    auto port = core::parse_port(u.port());
    if (!port) {
      why = "port must be a number from 1 to 65535";
      return std::nullopt;
    }
    out.port = *port;
  }
  // Path and query as written (escapes such as %00 pass on undecoded).
  out.target = u.encoded_path().empty() ? "/" : std::string{u.encoded_path()};
  if (u.has_query())
    out.target += "?" + std::string{u.encoded_query()};
  return out;
}

bool is_ip_literal(const webhook_url& u) {
  boost::system::error_code ec;
  ip::make_address(u.host, ec);
  return !ec;
}

std::optional<std::string> refused_at_create(const webhook_url& u, bool allow_private) {
  if (allow_private)
    return std::nullopt;
  boost::system::error_code ec;
  auto addr = ip::make_address(u.host, ec);
  if (!ec) {
    if (auto range = forbidden_range(addr))
      return u.host + " is " + *range;
    return std::nullopt;
  }
  constexpr std::string_view suffix = ".localhost";
  const std::string_view h = u.host;
  if (h == "localhost" || (h.size() > suffix.size() && h.substr(h.size() - suffix.size()) == suffix))
    return u.host + " is a loopback name";
  return std::nullopt;
}

} // namespace svc::schema
