#pragma once
// One client connection: reads requests (header and body limits, a deadline
// for each whole request), hands them to the application, and writes the
// answers in request order. Up to `pipeline_limit` requests may wait for
// their answers; past that the session stops reading until one is written.
// The head is read first: a route that streams its body (uploads) gets it
// through a `body_source`, chunk by chunk, and no further request is read
// until that body is. A body on disk is written piece by piece, read while
// the previous piece is on the wire. The unwritten answers a connection
// holds are counted (per connection and in the listener's budget): past
// either limit no further request is read until they are written.
// The session is a template over the stream that carries its bytes: a TCP
// stream in the server, Beast's in-memory test stream in unit tests; what
// differs between them is in `stream_ops`.

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>

#include "http/connection.hpp"
#include "http/transport.hpp"

namespace svc::http {

class connection_tracker;

/// What the session needs of its stream beyond reading and writing; one
/// specialisation per stream type.
template <class Stream>
struct stream_ops;

/// A TCP connection.
template <>
struct stream_ops<beast::tcp_stream> {
  /// The peer's address; sets `ec` when it has none.
  static net::ip::address peer(beast::tcp_stream& s, beast::error_code& ec) { return s.socket().remote_endpoint(ec).address(); }
  /// Ends a read in flight: the receive side is shut.
  static void shutdown_receive(beast::tcp_stream& s) {
    beast::error_code ec;
    s.socket().shutdown(tcp::socket::shutdown_receive, ec);
  }
  /// The client sees the end of the answers; reading goes on.
  static void shutdown_send(beast::tcp_stream& s) {
    beast::error_code ec;
    s.socket().shutdown(tcp::socket::shutdown_send, ec);
  }
  static void close(beast::tcp_stream& s) {
    beast::error_code ec;
    s.socket().close(ec);
  }
  /// Where dropped bytes are read from: the socket, bypassing the stream's timer.
  static tcp::socket& raw(beast::tcp_stream& s) { return s.socket(); }
};

template <class Stream>
class basic_session final : public connection, public std::enable_shared_from_this<basic_session<Stream>> {
public:
  basic_session(Stream stream, const transport_limits& limits, exchange_handler& app,
                std::shared_ptr<connection_tracker> tracker);
  ~basic_session() override;

  /// Starts reading on the session's strand.
  void start();

  void drain() override;
  bool overdue(std::chrono::steady_clock::time_point now, bool busy) const override;
  void expire() override;

private:
  class streamed_body;

  struct slot {
    uint64_t seq;
    std::optional<outgoing_response> response;
    std::string wire;  ///< status line and fields as written (alive during the write)
    std::string piece; ///< the piece of a streamed body being written
    uint64_t held = 0; ///< bytes of this answer counted as held
  };

  void do_read();
  void on_header(beast::error_code ec, std::size_t bytes);
  void on_read(beast::error_code ec, std::size_t bytes);
  bool read_failed(beast::error_code ec);
  void dispatch(http_request req, std::shared_ptr<body_source> body);
  void start_streaming();
  void start_body(uint64_t limit, body_sink sink, body_done done);
  void read_body_chunk();
  void on_body_chunk(beast::error_code ec, std::size_t bytes);
  void end_body(body_end how);
  void abandon_body();
  void enqueue_protocol_error(protocol_error e, const std::string& detail);
  responder make_responder(uint64_t seq);
  void deliver(uint64_t seq, outgoing_response res);
  void do_write();
  void on_write(beast::error_code ec, std::size_t bytes);
  void read_piece();
  void on_piece(std::optional<std::string> piece);
  bool may_read();
  void hold(slot& s, uint64_t n);
  void unhold(slot& s, uint64_t n);
  void close_if_done();
  void close();
  void stop_sending();
  void close_after_answer();
  void discard_input();
  void end_linger();

  using ops = stream_ops<Stream>;

  Stream stream_;
  beast::flat_buffer buffer_;
  std::optional<beast::http::request_parser<beast::http::string_body>> parser_;
  // The streamed body being read: its parser, a chunk buffer (only while
  // reading, so idle connections cost nothing), where the bytes go and who
  // learns the end. `body_pending_` holds further reads until it is done.
  std::optional<beast::http::request_parser<beast::http::buffer_body>> body_parser_;
  std::unique_ptr<char[]> chunk_;
  body_sink sink_;
  body_done body_done_;
  bool body_pending_ = false;
  std::size_t body_progress_ = 0; ///< body bytes since the read deadline was last renewed
  int64_t body_started_ = 0;      ///< steady-clock ticks of the body's first read
  int64_t body_due_ = 0;          ///< ...and of its absolute deadline
  bool body_timed_out_ = false;   ///< the body missed its rate or deadline: end it as too slow
  bool expect_continue_ = false; ///< the client waits for `100 Continue` before sending the body
  std::string continue_wire_;    ///< the interim answer while it is written
  uint64_t streamed_seq_ = 0;    ///< the request whose body is pending
  std::deque<slot> queue_;
  uint64_t next_seq_ = 0;
  bool reading_ = false;
  bool writing_ = false;
  bool read_closed_ = false; ///< no more requests will be read
  bool closed_ = false;
  bool lingering_ = false;    ///< closed for sending, still reading and dropping what the client sends
  std::size_t lingered_ = 0;  ///< bytes dropped so far
  std::unique_ptr<char[]> discard_; ///< where they go (only while lingering)
  uint64_t held_ = 0;         ///< bytes of unwritten answers (counted in the budget too)
  bool awaiting_budget_ = false; ///< registered to read again once the budget allows
  // Deadlines of the outstanding read and write (steady-clock ns, 0: none),
  // checked by the listener's sweep: cheaper than a timer per operation.
  std::atomic<int64_t> read_deadline_{0};
  std::atomic<int64_t> write_deadline_{0};
  std::atomic<int64_t> idle_deadline_{0}; ///< of the wait for a request head, applied while the server is busy
  const transport_limits& limits_;
  exchange_handler& app_;
  peer_info peer_;
  std::shared_ptr<connection_tracker> tracker_;
};

/// The server's session: over TCP (instantiated in session.cpp).
using session = basic_session<beast::tcp_stream>;
extern template class basic_session<beast::tcp_stream>;

} // namespace svc::http
