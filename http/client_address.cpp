#include "http/client_address.hpp"
#include "http/header_text.hpp"

#include <optional>
#include <string_view>

namespace svc::http {
namespace {

core::ip_bytes bytes_of(const net::ip::address& a) {
  if (a.is_v4())
    return net::ip::make_address_v6(net::ip::v4_mapped, a.to_v4()).to_bytes();
  return a.to_v6().to_bytes();
}

// One hop as a proxy writes it: `1.2.3.4`, `1.2.3.4:port`, `2001:db8::1`,
// `[2001:db8::1]` or `[2001:db8::1]:port`; nullopt for anything else.
std::optional<net::ip::address> parse_hop(std::string_view text) {
  text = trimmed(text);
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
    text = text.substr(1, text.size() - 2);
  if (!text.empty() && text.front() == '[') {
    auto close = text.find(']');
    if (close == std::string_view::npos)
      return std::nullopt;
    auto after = text.substr(close + 1);
    if (!after.empty() && after.front() != ':')
      return std::nullopt;
    text = text.substr(1, close - 1);
  } else if (text.find(':') == text.rfind(':') && text.find(':') != std::string_view::npos) {
    text = text.substr(0, text.find(':')); // IPv4 with a port
  }
  if (text.empty() || text.find('%') != std::string_view::npos) // no zone ids
    return std::nullopt;
  boost::system::error_code ec;
  auto a = net::ip::make_address(std::string{text}, ec);
  if (ec)
    return std::nullopt;
  return a;
}

// Every line of `field`, joined as one comma list.
std::string joined(const http_request& req, std::string_view name) {
  std::string out;
  for (auto [it, end] = req.equal_range(beast::string_view{name.data(), name.size()}); it != end; ++it)
    out.append(out.empty() ? "" : ",").append(it->value().data(), it->value().size());
  return out;
}

// The `for=` value of one `Forwarded` element (`for=1.2.3.4;proto=https`), or "" if none.
std::string_view for_param(std::string_view element) {
  while (!element.empty()) {
    auto semi = element.find(';');
    auto pair = trimmed(element.substr(0, semi));
    if (pair.size() > 4 && beast::iequals(pair.substr(0, 4), "for="))
      return pair.substr(4);
    if (semi == std::string_view::npos)
      break;
    element.remove_prefix(semi + 1);
  }
  return {};
}

} // namespace

bool in_ranges(const net::ip::address& a, const std::vector<core::cidr>& ranges) {
  auto b = bytes_of(a);
  for (auto& r : ranges)
    if (r.contains(b))
      return true;
  return false;
}

std::string client_key(const net::ip::address& a) {
  if (a.is_v4())
    return a.to_string();
  auto v6 = a.to_v6();
  if (v6.is_v4_mapped())
    return net::ip::make_address_v4(net::ip::v4_mapped, v6).to_string();
  auto bytes = v6.to_bytes();
  std::fill(bytes.begin() + 8, bytes.end(), 0);
  return net::ip::address_v6{bytes}.to_string() + "/64";
}

forwarding_header forwarding_header_named(std::string_view name) {
  return name == "forwarded" ? forwarding_header::forwarded : forwarding_header::x_forwarded_for;
}

net::ip::address client_address(const net::ip::address& peer, const http_request& req,
                                const std::vector<core::cidr>& trusted, forwarding_header header) {
  if (trusted.empty() || !in_ranges(peer, trusted))
    return peer;
  bool forwarded = header == forwarding_header::forwarded;
  auto hops = joined(req, forwarded ? "Forwarded" : "X-Forwarded-For");
  std::string_view rest = hops;
  auto client = peer;
  while (!trimmed(rest).empty()) {
    auto comma = rest.rfind(',');
    auto item = comma == std::string_view::npos ? rest : rest.substr(comma + 1);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(0, comma);
    auto hop = parse_hop(forwarded ? for_param(item) : item);
    if (!hop)
      return client;
    client = *hop;
    if (!in_ranges(client, trusted))
      return client;
  }
  return client;
}

std::string client_key_behind(const core::config& cfg, const net::ip::address& peer, const http_request& req) {
  return client_key(
    client_address(peer, req, cfg.trusted_proxies, forwarding_header_named(cfg.trusted_proxy_header)));
}

} // namespace svc::http
