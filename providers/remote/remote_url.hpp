#pragma once
// The operator's base URL of a remote back end (`--remote-url`), checked once
// at start: `http://[user:password@]host[:port][/base/path]`. Every API path
// is appended to the base path, so a server behind a path prefix works too.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace svc::providers {

/// A parsed base URL.
struct remote_url {
  std::string host;          ///< DNS name or IP literal (IPv6 without brackets)
  std::uint16_t port = 80;   ///< TCP port; 80 when the URL names none
  std::string base_path;     ///< empty or `/prefix` without a trailing slash
  std::string authorization; ///< `Basic ...` from `user:password@` (A1111's `--api-auth`); empty: none

  /// The `Host` header: the host (bracketed if IPv6), plus `:port` unless 80.
  std::string host_header() const;
  /// The request target of an API path (`/sdapi/v1/txt2img`): base path + path.
  std::string target(std::string_view path) const;
  /// `http://host:port/base` for logs and messages, without credentials.
  std::string text() const;
};

/// Parses `text`; nullopt with the reason in `why` when it is not an
/// `http://` URL of the shape above (https, query, fragment, bad port...).
std::optional<remote_url> parse_remote_url(std::string_view text, std::string& why);

} // namespace svc::providers
