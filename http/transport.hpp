#pragma once
// What the HTTP transport (listener and sessions) hands to the application
// and gets back: a parsed request (or its head and a source of its body),
// the peer, and a responder to call once.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "core/cidr.hpp"
#include "core/duration.hpp"

namespace svc::http {

namespace beast = boost::beast;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using http_request = beast::http::request<beast::http::string_body>;

/// A response body that stays on disk until it is written: the session asks
/// for the next piece only once the previous one is on the wire, so a
/// connection holds one piece whatever the body's size.
class body_stream {
public:
  virtual ~body_stream() = default;
  /// Bytes not yet handed out.
  virtual std::uint64_t remaining() const = 0;
  /// Reads the next piece (1..`max` bytes) off the asio threads and hands
  /// it to `done` on any thread; nullopt when the bytes cannot be read (the
  /// head promised them, so the connection closes). One call at a time.
  virtual void next(std::size_t max, std::function<void(std::optional<std::string>)> done) = 0;
};

/// A response ready for the wire: the status line and fields already
/// formatted (without `Connection`, which the session decides, and without the
/// blank line), and the body. Building it costs no per-field allocations.
struct outgoing_response {
  unsigned version = 11;  ///< 10 or 11, as the request
  std::string head;       ///< "HTTP/1.1 200 OK\r\nName: value\r\n..."
  std::string body;
  std::shared_ptr<body_stream> stream; ///< the rest of the body, read from disk while written; or null
  bool keep_alive = true; ///< false closes the connection after writing
  bool key_authenticated = false; ///< the request's API key was found valid (a node vouches for it to its peers)
};

/// Where a request came from.
struct peer_info {
  net::ip::address ip; ///< the TCP peer
  std::string address; ///< the client's key (see `client_key`), the key of its anonymous bucket
  /// Set when another node of the cluster accepted the request and forwarded
  /// it here: the request id it assigned, so one request has one id everywhere.
  std::string forwarded_request_id;
};

/// Delivers the response of one request. Call exactly once, from any thread.
using responder = std::function<void(outgoing_response)>;

/// Requests the transport could not parse; each is answered, then the connection closes.
enum class protocol_error { malformed, headers_too_large, body_too_large };

/// How reading a streamed body ended.
enum class body_end : uint8_t {
  complete,  ///< every byte went to the sink
  too_large, ///< the body is over the limit (a Content-Length over it: before any byte was read)
  refused,   ///< the sink returned false
  malformed, ///< the chunked framing is broken
  too_slow,  ///< the body arrived slower than the transport's minimum rate, or not within its deadline
  aborted,   ///< the connection failed, timed out or closed: no answer will reach the client
};

/// Takes the next bytes of a streamed body (valid during the call only); false refuses the rest.
using body_sink = std::function<bool(std::string_view bytes)>;

/// Learns how a streamed body ended; called once.
using body_done = std::function<void(body_end)>;

/// The unread body of a request whose route streams it (uploads). The
/// application reads it at most once, or answers without reading it; unless
/// the body was read `complete`, the connection closes after the answer,
/// since the rest of the body is still on the wire.
class body_source {
public:
  virtual ~body_source() = default;
  /// Reads up to `limit` bytes, handing them to `sink` piece by piece, then
  /// calls `done`. Any thread may call it; `sink` and `done` run on the
  /// connection's thread, so they must only move bytes.
  virtual void read(std::uint64_t limit, body_sink sink, body_done done) = 0;
};

/// The application behind a listener.
class exchange_handler {
public:
  virtual ~exchange_handler() = default;
  /// True if the application reads this request's body itself (asked once
  /// the head has arrived); such requests come with a `body_source`.
  virtual bool streams_body(const http_request& head) const = 0;
  /// A request arrived: complete (`body` null), or its head with `body` to read it.
  virtual void on_request(http_request req, std::shared_ptr<body_source> body, const peer_info& peer,
                          responder done) = 0;
  /// A request could not be read; `done` answers it before the connection closes.
  virtual void on_protocol_error(protocol_error e, const std::string& detail, const peer_info& peer,
                                 responder done) = 0;
};

/// Limits every connection lives under.
struct transport_limits {
  std::size_t header_limit = 16 * 1024;
  std::size_t body_limit = 1024 * 1024; ///< of bodies read whole (streamed ones have the reader's limit)
  core::duration read_timeout = std::chrono::seconds{30};
  // A streamed body (an upload) must bring `body_rate_bytes` within each
  // `body_rate_window` after the first, and end within `body_deadline` of its first read.
  std::size_t body_rate_bytes = 64 * 1024;
  core::duration body_rate_window = std::chrono::seconds{10};
  core::duration body_deadline = std::chrono::minutes{5};
  std::size_t pipeline_limit = 16;
  std::size_t response_queue_limit = 1024 * 1024; ///< bytes of unwritten answers past which a connection reads no more requests
  std::size_t max_connections = 4096;
  std::size_t max_connections_per_address = 256; ///< per client key; trusted proxies exempt
  core::duration busy_idle_timeout = std::chrono::seconds{5}; ///< wait for a request head while over 75% of max_connections
  std::vector<core::cidr> trusted_proxies; ///< peers whose forwarding headers name the client
  int io_threads = 1; ///< threads running the io_context; one needs no per-connection strand
};

} // namespace svc::http
