#pragma once
// What a load run is pointed at: a svcd API listener (on a loopback address
// unless the load-tester allows another) and the API keys to send, read from
// the command line's --url and --keys.

#include <boost/asio/ip/tcp.hpp>

#include <optional>
#include <string>
#include <vector>

namespace svc::bench {

/// A resolved server address and the `Host` header that names it.
struct target {
  boost::asio::ip::tcp::endpoint endpoint;
  std::string host_header; ///< `HOST:PORT` as written in the URL
};

/// Parses `http://HOST:PORT[/]` where HOST is 127.x.x.x, `localhost` or `[::1]`;
/// anything else (another host, https, a path) is refused with a message in
/// `error`, so the harness loads no machine other than this one by mistake.
/// With `allow_remote` HOST may also be any address or a name (resolved now,
/// first address taken).
std::optional<target> parse_target_url(const std::string& url, bool allow_remote, std::string& error);

/// The non-empty lines of `path`, trimmed. Empty (with `error` set) when the file
/// cannot be read or holds no key.
std::vector<std::string> read_keys(const std::string& path, std::string& error);

} // namespace svc::bench
