#pragma once
// An HTTPS server on 127.0.0.1 that records every request it gets and
// answers as told: the webhook receiver of unit and e2e tests, the bench and
// the demo. Its io_context runs on its own threads.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench/receiver/test_ca.hpp"

namespace svc::receiver {

/// One request as it arrived.
struct received_request {
  std::string method;
  std::string target;
  std::vector<std::pair<std::string, std::string>> headers; ///< in arrival order, names as sent
  std::string body;
  std::chrono::system_clock::time_point received_at;
  std::size_t connection = 0; ///< which accepted connection (1-based) carried it
  /// The first header called `name` (any case), if any.
  std::optional<std::string> header(std::string_view name) const;
};

/// How to answer a request.
struct reply {
  unsigned status = 200;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers; ///< extra fields, e.g. `Location`
  std::chrono::milliseconds delay{0}; ///< wait this long before answering (the connection's other work waits too)
  bool close = false;                 ///< close the connection after answering
};

struct receiver_options {
  pem_identity tls;          ///< the server's certificate and key
  std::size_t threads = 1;   ///< io_context threads
  std::chrono::milliseconds idle_timeout{30000}; ///< closes a connection that sends no request for this long
  std::size_t body_limit = 1 << 20; ///< a larger request body closes the connection
};

class https_receiver {
public:
  /// Listens on 127.0.0.1 on an ephemeral port. Throws std::runtime_error on failure.
  explicit https_receiver(receiver_options options);
  /// Stops (see `stop()`).
  ~https_receiver();

  https_receiver(const https_receiver&) = delete;
  https_receiver& operator=(const https_receiver&) = delete;

  /// The bound port.
  uint16_t port() const;
  /// `https://127.0.0.1:PORT` + `path`.
  std::string url(std::string_view path = "/hooks") const;

  /// Answers every later request with `r` (the default is a 200 with no body).
  void set_reply(reply r);
  /// Answers every later request with what `f` returns (called on a server thread); empty: back to `set_reply`.
  void set_handler(std::function<reply(const received_request&)> f);

  /// A copy of every request so far, in arrival order.
  std::vector<received_request> requests() const;
  /// Number of requests so far.
  std::size_t request_count() const;
  /// Waits until `count` requests arrived; false if `deadline` came first.
  bool wait_for(std::size_t count, std::chrono::steady_clock::time_point deadline) const;
  /// Forgets the recorded requests (the counters stay).
  void clear();

  /// TCP connections accepted so far.
  std::size_t accepted_connections() const;
  /// Connections open now.
  std::size_t open_connections() const;
  /// Answers written so far.
  std::size_t answered() const;

  /// Closes every connection that is waiting for its next request, as a
  /// server whose keep-alive timeout ran out would; returns once done.
  void close_idle_connections();

  /// Stops accepting, closes every connection and joins the threads. Idempotent.
  void stop();

private:
  friend class receiver_session;
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace svc::receiver
