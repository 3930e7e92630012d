#pragma once
// The outbound HTTPS client for webhook deliveries: one io_context thread,
// a keep-alive pool per host:port, one deadline per attempt (from when it
// gets a connection), the SSRF rule
// applied to every address a name resolves to, and no redirects.

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "actors/webhook_transport.hpp"

namespace svc::clients {

struct webhook_client_options {
  std::string ca_file;       ///< PEM file of extra trusted CAs (besides the system store); empty: none
  bool allow_private = false; ///< let deliveries reach loopback/private/... addresses (tests, demo)
  /// One deadline from the moment the attempt gets its connection (an idle
  /// one, or a new one to open): resolve, connect, TLS, write, whole answer.
  /// Time queued behind other attempts to the same host does not count, so a
  /// slow host cannot make the attempts behind it fail without being tried.
  std::chrono::milliseconds timeout{10000};
  /// How long an attempt may wait for a connection slot to its host; past it
  /// the attempt fails as a timeout without any traffic.
  std::chrono::milliseconds queue_timeout{60000};
  std::size_t max_idle_per_host = 32;       ///< idle connections kept per host:port (extras closed within ~1 s)
  std::size_t max_open_per_host = 64;       ///< open connections per host:port; further posts wait
  std::chrono::milliseconds idle_timeout{30000}; ///< an idle connection older than this is closed
};

class webhook_client final : public actors::webhook_transport {
public:
  /// Starts the client's thread. Throws std::runtime_error if `ca_file`
  /// cannot be loaded; the system store is read by the first connection.
  explicit webhook_client(webhook_client_options options);
  /// Stops (see `stop()`).
  ~webhook_client() override;

  webhook_client(const webhook_client&) = delete;
  webhook_client& operator=(const webhook_client&) = delete;

  /// `POST request.url` with the given headers and body plus `Host` and
  /// `Content-Length` (given `Host`, `Content-Length`, `Transfer-Encoding`
  /// and `Connection` fields are dropped). Any thread may call; `done` runs
  /// once, on the client's thread, or on the caller's once stopped. Errors:
  /// 5xx -> http_5xx; other non-2xx (incl. 3xx, never followed) -> http_4xx;
  /// deadline -> timeout; ECONNREFUSED -> connect_refused; TLS -> tls_error;
  /// DNS, SSRF refusal, reset, bad URL, malformed answer -> connect_error.
  /// Only a whole answer gives a status: an answer cut short has none.
  void post(actors::webhook_post request, std::function<void(actors::webhook_answer)> done) override;

  /// Closes idle connections, fails posts in flight with connect_error and
  /// joins the thread. Idempotent; must not be called from within a `done`.
  void stop();

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace svc::clients
