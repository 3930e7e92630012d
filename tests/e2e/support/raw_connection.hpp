#pragma once
// A plain TCP connection for tests that must send bytes no HTTP client would:
// garbage, oversized headers, a request dribbled out slowly.

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

namespace svc::e2e {

/// What a read returned.
struct read_result {
  std::string data;    ///< bytes received
  bool closed = false; ///< the peer closed or reset the connection
};

/// One client socket; every call has a timeout, none blocks beyond it.
class raw_connection {
public:
  /// Connects to `base_url` (`http://host:port`); throws on failure.
  explicit raw_connection(const std::string& base_url);
  ~raw_connection();

  /// Sends all bytes; false when the peer closed or reset the connection
  /// (or the timeout passed).
  bool send(std::string_view bytes, std::chrono::milliseconds timeout = std::chrono::seconds{5});
  /// Reads whatever arrives within `timeout`; returns early on the first bytes
  /// or on close.
  read_result read_some(std::chrono::milliseconds timeout);
  /// Reads until the peer closes or `timeout` passes.
  read_result read_until_close(std::chrono::milliseconds timeout);
  /// Whether a close or reset by the peer was seen.
  bool closed() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace svc::e2e
