#pragma once
// One keep-alive HTTP/1.1 client connection to svcd. It sends a request the
// caller formatted in full (the harness formats each distinct request once, so
// the client spends its CPU on the socket, not on building messages), reads
// the answer and connects again on the next send after the server closed it.

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace svc::bench {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using steady = std::chrono::steady_clock;

/// The outcome of one request: an answer, or a transport error and no answer.
struct exchange {
  beast::error_code error;                     ///< set: no complete answer (refused, reset, timed out)
  http::response<http::string_body> response; ///< valid when `error` is not set
  steady::time_point sent;                     ///< when the request was handed to the socket (or its connect)
  steady::time_point answered;                 ///< when the answer's last byte was read
};

/// Used from the thread running its io_context only, and for one request at a
/// time: `send` again only from (or after) the previous `done`.
class http_connection : public std::enable_shared_from_this<http_connection> {
public:
  using handler = std::function<void(exchange&)>;

  /// Does not connect yet; the first `send` does. `timeout` bounds each whole
  /// exchange (connect, write and read).
  http_connection(net::io_context& io, net::ip::tcp::endpoint server, steady::duration timeout);

  /// Writes `request` (a complete HTTP/1.1 message) and calls `done` once, from
  /// the io_context, with the answer or the error. After an error or an answer
  /// without keep-alive the socket is closed and the next send reconnects.
  void send(std::string request, handler done);

  /// Closes the socket; an exchange in flight ends with an error.
  void close();

private:
  void on_connect(beast::error_code ec);
  void write();
  void on_write(beast::error_code ec, std::size_t bytes);
  void on_read(beast::error_code ec, std::size_t bytes);
  void finish(beast::error_code ec);

  beast::tcp_stream stream_;
  net::ip::tcp::endpoint server_;
  steady::duration timeout_;
  bool connected_ = false;
  std::string request_;
  beast::flat_buffer buffer_;
  std::optional<http::response_parser<http::string_body>> parser_;
  exchange result_;
  handler done_;
};

} // namespace svc::bench
