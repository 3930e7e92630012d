#pragma once
// One HTTP/1.1 POST to one etcd endpoint on a private io_context, driven to
// completion by the calling thread, over TLS when the caller gives a context:
// the tcp_stream's expiry is the deadline of the connect, the handshake, the
// request and the answer (or, for a stream, its header), and every failure
// becomes an etcd_error.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/parser.hpp>

#include "clients/etcd_client.hpp"

namespace svc::clients {

class etcd_connection {
public:
  /// Connects to host:port (a name is resolved before the deadline starts),
  /// shakes hands over `tls` unless it is null (etcd's certificate must name
  /// `host`), and sends `POST path` with the JSON `body` and, unless empty,
  /// the login `token`, all within `timeout`. Throws unreachable (refused,
  /// reset, a handshake that fails) or timeout.
  etcd_connection(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout,
                  boost::asio::ssl::context* tls, std::string_view path, const std::string& body,
                  std::string_view token = {});

  /// Reads the whole answer, its body at most `limit` bytes: status and body.
  /// Throws timeout (deadline from the connect), unreachable (cut short),
  /// rejected (not HTTP, body over the limit).
  std::pair<unsigned, std::string> answer(std::size_t limit);

  /// Reads a streamed answer's header within the deadline; returns the status.
  unsigned stream_header();
  /// Reads the next piece of the streamed body into `buf` with no deadline,
  /// looking at `stop` at least every timeout. Returns the bytes read (0 or
  /// more), nothing at the body's end or once `stop` is true.
  std::optional<std::size_t> stream_piece(char* buf, std::size_t size, const std::atomic<bool>& stop);

  /// "host:port", for messages.
  const std::string& where() const { return where_; }

private:
  // Runs the operation `start` begins to its end; nothing when `stop` turned
  // true first (the socket is then closed).
  template <class Start>
  std::optional<boost::system::error_code> await(Start start, const std::atomic<bool>* stop);
  // `f(stream)` on the TLS stream if there is one, else on the TCP stream.
  template <class F>
  void on_stream(F f);
  // Throws the etcd_error `ec` stands for, unless it is none.
  void check(boost::system::error_code ec) const;

  std::string where_;
  std::chrono::milliseconds timeout_;
  boost::asio::io_context ioc_;
  boost::beast::tcp_stream stream_{ioc_};
  std::optional<boost::asio::ssl::stream<boost::beast::tcp_stream&>> tls_; ///< over stream_
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::response_parser<boost::beast::http::buffer_body>> stream_parser_;
};

} // namespace svc::clients
