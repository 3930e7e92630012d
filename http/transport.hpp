#pragma once
// What the HTTP transport (listener and sessions) hands to the application
// and gets back: a parsed request, the peer, and a responder to call once.

#include <functional>
#include <string>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "core/duration.hpp"

namespace svc::http {

namespace beast = boost::beast;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using http_request = beast::http::request<beast::http::string_body>;

/// A response ready for the wire: the status line and fields already
/// formatted (without `Connection`, which the session decides, and without the
/// blank line), and the body. Building it costs no per-field allocations.
struct outgoing_response {
  unsigned version = 11;  ///< 10 or 11, as the request
  std::string head;       ///< "HTTP/1.1 200 OK\r\nName: value\r\n..."
  std::string body;
  bool keep_alive = true; ///< false closes the connection after writing
};

/// Where a request came from.
struct peer_info {
  std::string address; ///< client IP, the key of its anonymous bucket
};

/// Delivers the response of one request. Call exactly once, from any thread.
using responder = std::function<void(outgoing_response)>;

/// Requests the transport could not parse; each is answered, then the connection closes.
enum class protocol_error { malformed, headers_too_large, body_too_large };

/// The application behind a listener.
class exchange_handler {
public:
  virtual ~exchange_handler() = default;
  /// A complete request arrived.
  virtual void on_request(http_request req, const peer_info& peer, responder done) = 0;
  /// A request could not be read; `done` answers it before the connection closes.
  virtual void on_protocol_error(protocol_error e, const std::string& detail, const peer_info& peer,
                                 responder done) = 0;
};

/// Limits every connection lives under.
struct transport_limits {
  std::size_t header_limit = 16 * 1024;
  std::size_t body_limit = 1024 * 1024;
  core::duration read_timeout = std::chrono::seconds{30};
  std::size_t pipeline_limit = 16;
  std::size_t max_connections = 4096;
  int io_threads = 1; ///< threads running the io_context; one needs no per-connection strand
};

} // namespace svc::http
