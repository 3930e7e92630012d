#pragma once
// Accepts connections on one address and runs a session for each, at most
// `max_connections` at a time (further clients wait in the kernel backlog).
// `drain()` stops accepting and lets every session finish what it has.

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "core/metrics.hpp"
#include "http/connection.hpp"
#include "http/response_budget.hpp"
#include "http/transport.hpp"

namespace svc::http {

/// The live sessions of a listener, and how many each client key holds;
/// sessions add and remove themselves.
class connection_tracker {
public:
  /// Registers a session of client `key` (empty: not counted per key); false
  /// when `key` holds `per_key_limit` connections already (the session is not added).
  bool add(connection* s, std::weak_ptr<connection> w, const std::string& key, std::size_t per_key_limit);
  void remove(connection* s);
  /// Number of open connections.
  std::size_t count() const;
  /// Asks every open session to finish and close.
  void drain_all();
  /// Closes the sessions whose read or write is past its deadline; `busy`
  /// also those waiting for a request head past the busy idle deadline.
  void expire_overdue(bool busy);
  /// Called (on any thread) whenever a connection ends.
  std::function<void()> on_remove;
  /// The bytes of unwritten answers the sessions may hold, shared by every listener of the server.
  std::shared_ptr<response_budget> budget;
  /// Follows the number of open connections, if set (before the first session).
  core::metrics::gauge* open_gauge = nullptr;

private:
  struct entry {
    std::weak_ptr<connection> weak;
    std::string key;
  };
  mutable std::mutex mutex_;
  std::unordered_map<connection*, entry> live_;
  std::unordered_map<std::string, std::size_t> per_key_;
};

class listener : public std::enable_shared_from_this<listener> {
public:
  /// Binds `host:port` (port 0: ephemeral); throws std::runtime_error naming the address on failure.
  /// Its sessions count their unwritten answers in `budget`.
  listener(net::io_context& ioc, const std::string& host_port, const transport_limits& limits,
           std::shared_ptr<response_budget> budget);

  /// The bound endpoint (the real port when 0 was asked for).
  tcp::endpoint local_endpoint() const;

  /// Starts accepting; every connection is served by `app`, which must outlive the listener's sessions.
  void start(exchange_handler& app);

  /// Stops accepting and drains every session.
  void drain();

  /// Open connections.
  std::size_t connections() const { return tracker_->count(); }

  /// Makes `g` follow the open connections; call before `start`.
  void count_connections_in(core::metrics::gauge& g) { tracker_->open_gauge = &g; }

private:
  void do_accept();
  void sweep();
  void on_accept(beast::error_code ec, tcp::socket socket);

  net::io_context& ioc_;
  net::strand<net::io_context::executor_type> strand_;
  tcp::acceptor acceptor_;
  net::steady_timer retry_timer_; ///< backs off after a failed accept (e.g. EMFILE)
  net::steady_timer sweep_timer_; ///< periodic check of session deadlines
  transport_limits limits_;
  exchange_handler* app_ = nullptr;
  std::shared_ptr<connection_tracker> tracker_;
  bool accepting_ = false; ///< an accept is outstanding
  bool stopped_ = false;
};

} // namespace svc::http
