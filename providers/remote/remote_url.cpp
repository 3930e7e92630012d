#include "providers/remote/remote_url.hpp"

#include <algorithm>

#include <boost/url/grammar/ci_string.hpp>

#include "core/crypto.hpp"
#include "core/uri.hpp"

namespace svc::providers {
namespace {

namespace urls = boost::urls;

constexpr std::string_view port_reason = "the port must be a number between 1 and 65535";

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
         || c == '_';
}

bool all_digits(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Why Boost.URL refused `rest` (what follows `http://`): a port that is no
// number is worth naming; anything else is simply no URL.
std::string why_malformed(std::string_view rest) {
  auto authority = rest.substr(0, rest.find_first_of("/?#"));
  authority = authority.substr(authority.rfind('@') == std::string_view::npos ? 0 : authority.rfind('@') + 1);
  auto host_end = !authority.empty() && authority.front() == '[' ? authority.find(']') : 0;
  auto colon = host_end == std::string_view::npos ? host_end : authority.find(':', host_end);
  if (colon != std::string_view::npos && !all_digits(authority.substr(colon + 1)))
    return std::string{port_reason};
  return "not a valid URL (RFC 3986: no spaces, control characters or stray brackets; escape the rest)";
}

// Host and port of a parsed URL; false with the reason in `why`.
bool take_host_port(const urls::url_view& u, remote_url& url, std::string& why) {
  auto host = core::host_text(u.authority());
  if (!host) {
    why = "malformed IPv6 address";
    return false;
  }
  if (u.host_type() == urls::host_type::name && (host->empty() || !std::all_of(host->begin(), host->end(), name_char))) {
    why = host->empty() ? "no host" : "invalid character in the host";
    return false;
  }
  url.host = std::move(*host);
  if (!u.has_port())
    return true;
  auto port = core::parse_port(u.port());
  if (!port) {
    why = std::string{port_reason};
    return false;
  }
  url.port = *port;
  return true;
}

} // namespace

std::string remote_url::host_header() const {
  auto h = host.find(':') == std::string::npos ? host : "[" + host + "]";
  return port == 80 ? h : h + ":" + std::to_string(port);
}

std::string remote_url::target(std::string_view path) const {
  return base_path + std::string(path);
}

std::string remote_url::text() const {
  return "http://" + host_header() + base_path;
}

std::optional<remote_url> parse_remote_url(std::string_view text, std::string& why) {
  if (text.empty()) {
    why = "no URL given";
    return std::nullopt;
  }
  auto starts = [&](std::string_view prefix) {
    return text.size() >= prefix.size() && urls::grammar::ci_is_equal(text.substr(0, prefix.size()), prefix);
  };
  if (starts("https://")) {
    why = "https is not supported; reach the back end over http on a private network or through a local TLS proxy";
    return std::nullopt;
  }
  if (!starts("http://")) {
    why = "the URL must start with http://";
    return std::nullopt;
  }
  auto parsed = core::parse_uri(text);
  if (!parsed) {
    why = why_malformed(text.substr(7));
    return std::nullopt;
  }
  auto& u = *parsed;
  remote_url url;
  if (!take_host_port(u, url, why))
    return std::nullopt;
  if (u.has_userinfo()) {
    if (!u.has_password()) {
      why = "credentials must be user:password (percent-encoded)";
      return std::nullopt;
    }
    url.authorization = "Basic " + core::base64_encode(u.user() + ":" + u.password());
  }
  if (u.has_query() || u.has_fragment()) {
    why = "the path may hold no query, fragment, space or control character";
    return std::nullopt;
  }
  // Escapes in the path are passed on as they are, never decoded.
  std::string_view path = u.encoded_path();
  while (!path.empty() && path.back() == '/')
    path.remove_suffix(1);
  url.base_path = std::string(path);
  return url;
}

} // namespace svc::providers
