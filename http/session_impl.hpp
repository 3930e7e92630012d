#pragma once
// The definitions of `basic_session`, for each stream type it is used with:
// session.cpp instantiates it over TCP, unit tests over Beast's test stream.

#include "http/client_address.hpp"
#include "http/listener.hpp"
#include "http/session.hpp"

namespace svc::http {
namespace bhttp = beast::http;
namespace session_detail {

/// Bytes of a streamed body handed to its sink at a time.
constexpr std::size_t body_chunk_bytes = 64 * 1024;

/// Bytes of a streamed response body read from disk at a time: the most a
/// connection holds of it.
constexpr std::size_t piece_bytes = 64 * 1024;
// A connection closed after its last answer first drops what the client
// still sends for this long, or this many bytes (see close_after_answer).
constexpr std::chrono::seconds linger_time{2};
constexpr std::size_t linger_bytes = 32 * 1024 * 1024;
constexpr std::size_t discard_bytes = 16 * 1024;

inline int64_t deadline_after(core::duration d) {
  return (std::chrono::steady_clock::now() + d).time_since_epoch().count();
}

inline int64_t ticks(core::duration d) { return std::chrono::duration_cast<std::chrono::steady_clock::duration>(d).count(); }

// A syntax error of the HTTP parser, as opposed to the connection ending.
inline bool is_parse_error(const beast::error_code& ec) {
  return ec.category() == make_error_code(bhttp::error::end_of_stream).category() && ec != bhttp::error::end_of_stream
         && ec != bhttp::error::partial_message;
}

} // namespace session_detail

// The body of the streamed request at the head of the reads: reading starts
// on the session's strand, whichever thread asks.
template <class Stream>
class basic_session<Stream>::streamed_body final : public body_source {
public:
  explicit streamed_body(std::shared_ptr<basic_session> s) : session_{std::move(s)} {}

  void read(uint64_t limit, body_sink sink, body_done done) override {
    net::post(session_->stream_.get_executor(),
              [s = session_, limit, sink = std::move(sink), done = std::move(done)]() mutable {
                s->start_body(limit, std::move(sink), std::move(done));
              });
  }

private:
  std::shared_ptr<basic_session> session_;
};

template <class Stream>
basic_session<Stream>::basic_session(Stream stream, const transport_limits& limits, exchange_handler& app,
                                     std::shared_ptr<connection_tracker> tracker)
  : stream_{std::move(stream)}, limits_{limits}, app_{app}, tracker_{std::move(tracker)} {
  beast::error_code ec;
  auto ip = ops::peer(stream_, ec);
  if (!ec)
    peer_.ip = ip;
  peer_.address = ec ? "unknown" : client_key(peer_.ip);
}

template <class Stream>
basic_session<Stream>::~basic_session() {
  if (!closed_)
    tracker_->budget->release(held_);
  tracker_->remove(this);
}

template <class Stream>
void basic_session<Stream>::start() {
  // A trusted proxy speaks for many clients: its connections are not capped per address.
  auto key = in_ranges(peer_.ip, limits_.trusted_proxies) ? std::string{} : peer_.address;
  if (!tracker_->add(this, this->weak_from_this(), key, limits_.max_connections_per_address))
    return close(); // over the per-address cap: closed before a byte is read

  net::dispatch(stream_.get_executor(), [self = this->shared_from_this()] { self->do_read(); });
}

template <class Stream>
void basic_session<Stream>::drain() {
  net::post(stream_.get_executor(), [self = this->shared_from_this()] {
    self->read_closed_ = true;
    self->close_if_done();
  });
}

// Whether answers already queued leave room to read another request; when
// the server-wide budget is spent, asks to be woken once it is not.
template <class Stream>
bool basic_session<Stream>::may_read() {
  if (held_ >= limits_.response_queue_limit || awaiting_budget_)
    return false; // on_write, or the budget's wake-up, reads again
  if (!tracker_->budget->exhausted())
    return true;
  std::weak_ptr<basic_session> weak = this->weak_from_this();
  awaiting_budget_ = tracker_->budget->wait([weak] {
    if (auto self = weak.lock())
      net::post(self->stream_.get_executor(), [self] {
        self->awaiting_budget_ = false;
        self->do_read();
      });
  });
  return !awaiting_budget_;
}

template <class Stream>
void basic_session<Stream>::do_read() {
  if (read_closed_ || closed_ || reading_ || body_pending_ || queue_.size() >= limits_.pipeline_limit || !may_read())
    return;
  reading_ = true;
  parser_.emplace();
  parser_->header_limit(static_cast<std::uint32_t>(limits_.header_limit));
  // Which body limit applies depends on the route: checked once the head is in.
  parser_->body_limit(boost::none);
  // The deadline covers the whole request, so a client trickling bytes
  // (slowloris) or idling on keep-alive is cut off after read_timeout.
  read_deadline_ = session_detail::deadline_after(limits_.read_timeout);
  idle_deadline_ = session_detail::deadline_after(limits_.busy_idle_timeout);
  bhttp::async_read_header(stream_, buffer_, *parser_,
                           beast::bind_front_handler(&basic_session::on_header, this->shared_from_this()));
}

// Answers a failed read (a protocol error, or the end of the connection); false when there was none.
template <class Stream>
bool basic_session<Stream>::read_failed(beast::error_code ec) {
  if (!ec)
    return false;
  read_deadline_ = 0;
  if (ec == bhttp::error::header_limit) {
    enqueue_protocol_error(protocol_error::headers_too_large, {});
  } else if (ec == bhttp::error::body_limit) {
    enqueue_protocol_error(protocol_error::body_too_large, {});
  } else if (session_detail::is_parse_error(ec)) {
    enqueue_protocol_error(protocol_error::malformed, ec.message());
  } else { // end of stream, reset, or the connection is being drained
    read_closed_ = true;
    close_if_done();
  }
  return true;
}

template <class Stream>
void basic_session<Stream>::on_header(beast::error_code ec, std::size_t) {
  reading_ = false;
  idle_deadline_ = 0;
  if (closed_ || read_failed(ec))
    return;
  if (parser_->is_done()) { // no body
    read_deadline_ = 0;
    return dispatch(parser_->release(), nullptr);
  }
  if (app_.streams_body(parser_->get()))
    return start_streaming();
  if (auto length = parser_->content_length(); length && *length > limits_.body_limit) {
    read_deadline_ = 0;
    return enqueue_protocol_error(protocol_error::body_too_large, {});
  }
  parser_->body_limit(limits_.body_limit); // a chunked body counts down from here
  reading_ = true;
  bhttp::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&basic_session::on_read, this->shared_from_this()));
}

template <class Stream>
void basic_session<Stream>::on_read(beast::error_code ec, std::size_t) {
  reading_ = false;
  if (closed_ || read_failed(ec))
    return;
  read_deadline_ = 0;
  dispatch(parser_->release(), nullptr);
}

template <class Stream>
void basic_session<Stream>::dispatch(http_request req, std::shared_ptr<body_source> body) {
  auto seq = next_seq_++;
  queue_.push_back({seq, std::nullopt, {}, {}, 0});
  app_.on_request(std::move(req), std::move(body), peer_, make_responder(seq));
  do_read();
}

// Hands the head to the application with a source of the body, which stays
// unread on the wire until the application asks for it.
template <class Stream>
void basic_session<Stream>::start_streaming() {
  expect_continue_ = beast::iequals(parser_->get()[bhttp::field::expect], "100-continue");
  body_parser_.emplace(std::move(*parser_));
  parser_.reset();
  http_request head;
  head.base() = std::move(body_parser_->get().base());
  body_pending_ = true;
  streamed_seq_ = next_seq_;
  dispatch(std::move(head), std::make_shared<streamed_body>(this->shared_from_this()));
}

template <class Stream>
void basic_session<Stream>::start_body(uint64_t limit, body_sink sink, body_done done) {
  if (!body_pending_ || sink_ || closed_) { // answered already, read twice, or the connection is gone
    done(body_end::aborted);
    return;
  }
  sink_ = std::move(sink);
  body_done_ = std::move(done);
  if (auto length = body_parser_->content_length(); length && *length > limit)
    return end_body(body_end::too_large);
  body_parser_->body_limit(limit);
  chunk_ = std::make_unique<char[]>(session_detail::body_chunk_bytes);
  body_progress_ = 0;
  body_started_ = session_detail::deadline_after(core::duration{0});
  body_due_ = body_started_ + session_detail::ticks(limits_.body_deadline);
  // The first window is free: the first bytes of the rate are due at the end of the second.
  read_deadline_ = std::min(body_started_ + 2 * session_detail::ticks(limits_.body_rate_window), body_due_);
  // A client that sent `Expect: 100-continue` waits for this before the
  // body. It can only go out now if no earlier answer is still owed.
  if (!expect_continue_ || queue_.size() != 1 || writing_)
    return read_body_chunk();
  writing_ = true;
  continue_wire_ = "HTTP/1.1 100 Continue\r\n\r\n";
  write_deadline_ = session_detail::deadline_after(limits_.read_timeout);
  net::async_write(stream_, net::buffer(continue_wire_), [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
    self->writing_ = false;
    self->write_deadline_ = 0;
    if (ec)
      self->close();
    if (self->closed_ || !self->body_pending_)
      self->end_body(body_end::aborted);
    else
      self->read_body_chunk();
    self->do_write();
  });
}

template <class Stream>
void basic_session<Stream>::read_body_chunk() {
  auto& body = body_parser_->get().body();
  body.data = chunk_.get();
  body.size = session_detail::body_chunk_bytes;
  body.more = true;
  reading_ = true;
  bhttp::async_read_some(stream_, buffer_, *body_parser_,
                         beast::bind_front_handler(&basic_session::on_body_chunk, this->shared_from_this()));
}

template <class Stream>
void basic_session<Stream>::on_body_chunk(beast::error_code ec, std::size_t) {
  reading_ = false;
  if (closed_ || !body_pending_)
    return end_body(body_end::aborted);
  if (body_timed_out_)
    return end_body(body_end::too_slow);
  if (ec == bhttp::error::need_buffer) // the chunk buffer is full: not an error
    ec = {};
  auto got = session_detail::body_chunk_bytes - body_parser_->get().body().size;
  if (got > 0) {
    if (!sink_({chunk_.get(), got}))
      return end_body(body_end::refused);
    // The minimum rate: each `body_rate_bytes` buy one more window, but
    // never past the body's deadline, so a trickle cannot hold its upload
    // slot for hours.
    body_progress_ += got;
    if (body_progress_ >= limits_.body_rate_bytes) {
      body_progress_ = 0;
      auto window = session_detail::ticks(limits_.body_rate_window);
      read_deadline_ = std::min(std::max(session_detail::deadline_after(limits_.body_rate_window), body_started_ + 2 * window), body_due_);
    }
  }
  if (ec == bhttp::error::body_limit)
    return end_body(body_end::too_large);
  if (ec)
    return end_body(session_detail::is_parse_error(ec) ? body_end::malformed : body_end::aborted);
  if (body_parser_->is_done())
    return end_body(body_end::complete);
  read_body_chunk();
}

template <class Stream>
void basic_session<Stream>::end_body(body_end how) {
  auto done = std::move(body_done_);
  body_done_ = nullptr;
  sink_ = nullptr;
  chunk_.reset();
  body_parser_.reset();
  body_pending_ = false;
  read_deadline_ = 0;
  if (how != body_end::complete)
    read_closed_ = true; // the rest of the body is still on the wire: answer, then close
  if (done)
    done(how);
  if (how == body_end::complete)
    do_read();
  else
    close_if_done();
}

// The streamed request was answered without (all of) its body: nothing more
// can be read from this connection. A read or write in flight still uses
// the parser and buffer; its completion ends the body.
template <class Stream>
void basic_session<Stream>::abandon_body() {
  body_pending_ = false;
  read_closed_ = true;
  if (reading_ || writing_)
    return;
  body_done_ = nullptr;
  sink_ = nullptr;
  chunk_.reset();
  body_parser_.reset();
  read_deadline_ = 0;
}

template <class Stream>
void basic_session<Stream>::enqueue_protocol_error(protocol_error e, const std::string& detail) {
  read_closed_ = true; // the byte stream is out of step: answer, then close
  auto seq = next_seq_++;
  queue_.push_back({seq, std::nullopt, {}, {}, 0});
  app_.on_protocol_error(e, detail, peer_, make_responder(seq));
}

template <class Stream>
responder basic_session<Stream>::make_responder(uint64_t seq) {
  return [self = this->shared_from_this(), seq](outgoing_response res) mutable {
    net::post(self->stream_.get_executor(),
              [self, seq, res = std::move(res)]() mutable { self->deliver(seq, std::move(res)); });
  };
}

template <class Stream>
void basic_session<Stream>::deliver(uint64_t seq, outgoing_response res) {
  if (closed_ || queue_.empty())
    return;
  if (body_pending_ && seq == streamed_seq_)
    abandon_body();
  auto index = seq - queue_.front().seq;
  if (index >= queue_.size())
    return;
  auto& s = queue_[index];
  s.response = std::move(res);
  hold(s, s.response->head.size() + s.response->body.size());
  do_write();
}

template <class Stream>
void basic_session<Stream>::hold(slot& s, uint64_t n) {
  s.held += n;
  held_ += n;
  tracker_->budget->hold(n);
}

template <class Stream>
void basic_session<Stream>::unhold(slot& s, uint64_t n) {
  if (closed_) // close() gave back everything
    return;
  s.held -= n;
  held_ -= n;
  tracker_->budget->release(n);
}

template <class Stream>
void basic_session<Stream>::do_write() {
  if (writing_ || closed_ || queue_.empty() || !queue_.front().response)
    return;
  auto& front = queue_.front();
  auto& res = *front.response;
  if (read_closed_ && queue_.size() == 1)
    res.keep_alive = false;
  writing_ = true;
  front.wire.assign(res.head);
  if (!res.keep_alive)
    front.wire.append("Connection: close\r\n");
  else if (res.version == 10)
    front.wire.append("Connection: keep-alive\r\n");
  front.wire.append("\r\n");
  std::array<net::const_buffer, 2> buffers{net::buffer(front.wire), net::buffer(res.body)};
  write_deadline_ = session_detail::deadline_after(limits_.read_timeout);
  net::async_write(stream_, buffers, beast::bind_front_handler(&basic_session::on_write, this->shared_from_this()));
}

template <class Stream>
void basic_session<Stream>::on_write(beast::error_code ec, std::size_t) {
  writing_ = false;
  write_deadline_ = 0;
  // An expiry may have emptied the queue after this write completed.
  if (ec || closed_ || queue_.empty()) {
    close();
    return;
  }
  auto& front = queue_.front();
  if (auto& stream = front.response->stream; stream && stream->remaining() > 0)
    return read_piece();
  bool keep_alive = front.response->keep_alive;
  unhold(front, front.held);
  queue_.pop_front();
  if (!keep_alive)
    return close_after_answer();
  do_write();
  do_read();
  close_if_done();
}

// The next piece of the front answer's body, read off this thread; the
// write deadline covers the read, so a stuck disk closes the connection too.
template <class Stream>
void basic_session<Stream>::read_piece() {
  writing_ = true;
  write_deadline_ = session_detail::deadline_after(limits_.read_timeout);
  queue_.front().response->stream->next(session_detail::piece_bytes, [self = this->shared_from_this()](std::optional<std::string> piece) {
    net::post(self->stream_.get_executor(),
              [self, piece = std::move(piece)]() mutable { self->on_piece(std::move(piece)); });
  });
}

template <class Stream>
void basic_session<Stream>::on_piece(std::optional<std::string> piece) {
  if (closed_ || queue_.empty()) {
    writing_ = false;
    return;
  }
  if (!piece || piece->empty()) { // the head promised bytes that cannot be read: only closing tells the client
    writing_ = false;
    return close();
  }
  auto& front = queue_.front();
  unhold(front, front.piece.size());
  front.piece = std::move(*piece);
  hold(front, front.piece.size());
  net::async_write(stream_, net::buffer(front.piece), beast::bind_front_handler(&basic_session::on_write, this->shared_from_this()));
}

template <class Stream>
bool basic_session<Stream>::overdue(std::chrono::steady_clock::time_point now, bool busy) const {
  auto t = now.time_since_epoch().count();
  auto r = read_deadline_.load(std::memory_order_relaxed), w = write_deadline_.load(std::memory_order_relaxed);
  auto i = busy ? idle_deadline_.load(std::memory_order_relaxed) : 0;
  return (r != 0 && t > r) || (w != 0 && t > w) || (i != 0 && t > i);
}

template <class Stream>
void basic_session<Stream>::expire() {
  net::post(stream_.get_executor(), [self = this->shared_from_this()] {
    // A streamed body too slow: ending its read (the receive side shut, so
    // the read completes) lets the application answer 408 before the close.
    // Only once: if the read does not end, the next sweep closes.
    if (self->body_pending_ && self->sink_ && self->reading_ && self->write_deadline_ == 0 && !self->body_timed_out_) {
      self->body_timed_out_ = true;
      ops::shutdown_receive(self->stream_);
      return;
    }
    // Close only: a write in flight may still use its slot's buffers, which
    // the slots keep alive until the session itself goes away.
    self->close();
  });
}

template <class Stream>
void basic_session<Stream>::close_if_done() {
  if (read_closed_ && queue_.empty() && !writing_)
    close_after_answer();
}

// The last answer is written. A client may still be sending (the rest of a
// body refused on its head, a cut-off upload): closing with unread bytes
// makes the kernel send a reset, which can destroy the answer before the
// client reads it. So the sending side is shut (the client sees the end of
// the answer) and what arrives is dropped until the client closes too, or
// for `session_detail::linger_time` / `session_detail::linger_bytes` at most. With a read in flight there
// is nothing to drop that the read would not take: the close is immediate.
template <class Stream>
void basic_session<Stream>::close_after_answer() {
  if (closed_ || reading_)
    return close();
  stop_sending();
  lingering_ = true;
  write_deadline_ = 0;
  idle_deadline_ = 0;
  read_deadline_ = session_detail::deadline_after(session_detail::linger_time); // the listener's sweep ends a client that never stops
  discard_ = std::make_unique<char[]>(session_detail::discard_bytes);
  discard_input();
}

template <class Stream>
void basic_session<Stream>::discard_input() {
  ops::raw(stream_).async_read_some(net::buffer(discard_.get(), session_detail::discard_bytes),
                                    [self = this->shared_from_this()](beast::error_code ec, std::size_t n) {
                                      self->lingered_ += n;
                                      if (ec || !self->lingering_ || self->lingered_ > session_detail::linger_bytes)
                                        return self->end_linger();
                                      self->discard_input();
                                    });
}

template <class Stream>
void basic_session<Stream>::end_linger() {
  if (!lingering_)
    return;
  lingering_ = false;
  read_deadline_ = 0;
  ops::close(stream_);
  tracker_->remove(this);
}

template <class Stream>
void basic_session<Stream>::close() {
  if (lingering_)
    return end_linger(); // the sweep: the client did not stop in time
  if (closed_)
    return;
  stop_sending();
  ops::close(stream_);
  // The slot is free once the socket is: work still holding this session (an
  // actor answering a long poll late) must not count as an open connection.
  tracker_->remove(this);
}

template <class Stream>
void basic_session<Stream>::stop_sending() {
  closed_ = true;
  tracker_->budget->release(held_);
  held_ = 0;
  ops::shutdown_send(stream_);
}

} // namespace svc::http
