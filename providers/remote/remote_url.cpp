#include "providers/remote/remote_url.hpp"

#include <algorithm>
#include <cctype>

#include "core/crypto.hpp"

namespace svc::providers {
namespace {

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
}

// Characters a path may hold as they are (RFC 3986 pchar and '/'), plus '%'
// of an escape, which is passed on undecoded.
bool path_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) ||
         std::string_view("-._~!$&'()*+,;=:@/%").find(c) != std::string_view::npos;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Userinfo is percent-encoded in a URL, so a password may hold ':' or '@'.
std::optional<std::string> percent_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out.push_back(s[i]);
      continue;
    }
    if (i + 2 >= s.size() || hex_value(s[i + 1]) < 0 || hex_value(s[i + 2]) < 0)
      return std::nullopt;
    out.push_back(static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2])));
    i += 2;
  }
  return out;
}

bool parse_port(std::string_view digits, std::uint16_t& port) {
  if (digits.empty() || digits.size() > 5 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  auto n = std::stoul(std::string(digits));
  if (n == 0 || n > 65535)
    return false;
  port = static_cast<std::uint16_t>(n);
  return true;
}

// Fills host and port from `authority` (without userinfo).
bool parse_host_port(std::string_view authority, remote_url& url, std::string& why) {
  std::string_view port_text;
  if (!authority.empty() && authority.front() == '[') {
    auto close = authority.find(']');
    if (close == std::string_view::npos) {
      why = "unclosed '[' in the host";
      return false;
    }
    url.host = std::string(authority.substr(1, close - 1));
    auto rest = authority.substr(close + 1);
    if (!rest.empty() && rest.front() != ':') {
      why = "unexpected text after the IPv6 address";
      return false;
    }
    if (url.host.empty() || !std::all_of(url.host.begin(), url.host.end(), [](char c) {
          return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.';
        })) {
      why = "malformed IPv6 address";
      return false;
    }
    if (!rest.empty())
      port_text = rest.substr(1);
    else
      return true;
  } else {
    auto colon = authority.find(':');
    url.host = std::string(authority.substr(0, colon));
    if (url.host.empty() || !std::all_of(url.host.begin(), url.host.end(), name_char)) {
      why = url.host.empty() ? "no host" : "invalid character in the host";
      return false;
    }
    if (colon == std::string_view::npos)
      return true;
    port_text = authority.substr(colon + 1);
  }
  if (!parse_port(port_text, url.port)) {
    why = "the port must be a number between 1 and 65535";
    return false;
  }
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
  constexpr std::string_view scheme = "http://";
  auto lower_prefix = [&](std::string_view prefix) {
    return text.size() >= prefix.size() &&
           std::equal(prefix.begin(), prefix.end(), text.begin(),
                      [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
  };
  if (text.empty()) {
    why = "no URL given";
    return std::nullopt;
  }
  if (lower_prefix("https://")) {
    why = "https is not supported; reach the back end over http on a private network or through a local TLS proxy";
    return std::nullopt;
  }
  if (!lower_prefix(scheme)) {
    why = "the URL must start with http://";
    return std::nullopt;
  }
  auto rest = text.substr(scheme.size());
  auto slash = rest.find('/');
  auto authority = rest.substr(0, slash);
  auto path = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash);

  remote_url url;
  if (auto at = authority.rfind('@'); at != std::string_view::npos) {
    auto decoded = percent_decode(authority.substr(0, at));
    if (!decoded || decoded->find(':') == std::string::npos) {
      why = "credentials must be user:password (percent-encoded)";
      return std::nullopt;
    }
    url.authorization = "Basic " + core::base64_encode(*decoded);
    authority = authority.substr(at + 1);
  }
  if (!parse_host_port(authority, url, why))
    return std::nullopt;
  if (!std::all_of(path.begin(), path.end(), path_char)) {
    why = "the path may hold no query, fragment, space or control character";
    return std::nullopt;
  }
  while (!path.empty() && path.back() == '/')
    path.remove_suffix(1);
  url.base_path = std::string(path);
  return url;
}

} // namespace svc::providers
