#pragma once
// One HTTP/1.1 request on a connection of its own, asynchronous on the
// caller's io_context, so the remote back end runs its render request, its
// progress polls and an interrupt side by side on one worker thread. Retries
// and the job's deadline are the caller's business.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

namespace svc::providers {

/// How an exchange ended.
enum class exchange_fault {
  none,            ///< an answer arrived (any status)
  connect_failed,  ///< refused, unreachable, or connecting took too long: nothing was sent
  connection_lost, ///< reset or closed before the whole answer arrived
  timed_out,       ///< the exchange's deadline passed
  bad_answer,      ///< not HTTP
  too_large,       ///< a body over the limit (read no further)
};

/// The end of an exchange.
struct exchange_answer {
  exchange_fault fault = exchange_fault::none;
  int status = 0;     ///< HTTP status; only when `fault` is none
  std::string body;   ///< the answer's body; only when `fault` is none
  std::string detail; ///< the system's reason for a fault (`Connection refused`)
};

/// What to send, and the limits to send it under.
struct exchange_request {
  boost::beast::http::verb method = boost::beast::http::verb::get; ///< GET or POST
  std::string target;        ///< path and query
  std::string host;          ///< the `Host` header
  std::string authorization; ///< the `Authorization` header; empty: none
  std::vector<std::pair<std::string, std::string>> headers; ///< more header fields (`X-Request-Id`, `traceparent`)
  std::string body;          ///< sent when not empty, as `content_type`
  std::string content_type = "application/json"; ///< of `body`
  std::chrono::steady_clock::time_point connect_deadline; ///< connecting must finish by then
  std::chrono::steady_clock::time_point deadline;         ///< the whole exchange must finish by then
  std::size_t body_limit = 1 << 20;                        ///< bytes of the answer's body
};

/// Resolves `host` (blocking, on the calling thread); empty with the
/// resolver's reason in `why` when it fails.
std::vector<boost::asio::ip::tcp::endpoint> resolve_endpoints(const std::string& host, std::uint16_t port,
                                                              std::string& why);

/// A running exchange. Lives until its last handler ran; hold the pointer
/// only to `abort()` it.
class http_exchange : public std::enable_shared_from_this<http_exchange> {
public:
  /// Receives the end of an exchange, on a thread running its io_context.
  using done_fn = std::function<void(exchange_answer)>;

  /// Connects to the first of `endpoints` that answers and sends `request`;
  /// `done` runs once, unless `abort()` comes first.
  static std::shared_ptr<http_exchange> start(boost::asio::io_context& ioc,
                                              const std::vector<boost::asio::ip::tcp::endpoint>& endpoints,
                                              exchange_request request, done_fn done);

  /// Closes the connection; `done` will not run. Call on the io_context's thread.
  void abort();

  /// Use `start`.
  http_exchange(boost::asio::io_context& ioc, exchange_request request, done_fn done);

private:
  void on_connect(boost::system::error_code ec);
  void on_write(boost::system::error_code ec);
  void on_read(boost::system::error_code ec);
  void fail(exchange_fault fault, boost::system::error_code ec);
  void finish(exchange_answer answer);

  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  boost::beast::http::request<boost::beast::http::string_body> request_;
  boost::beast::http::response_parser<boost::beast::http::string_body> parser_;
  std::chrono::steady_clock::time_point deadline_;
  std::size_t body_limit_;
  done_fn done_;
};

} // namespace svc::providers
