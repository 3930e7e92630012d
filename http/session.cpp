#include "http/session.hpp"

#include "http/listener.hpp"

namespace svc::http {
namespace bhttp = beast::http;
namespace {

int64_t deadline_after(core::duration d) {
  return (std::chrono::steady_clock::now() + d).time_since_epoch().count();
}

} // namespace

session::session(tcp::socket socket, const transport_limits& limits, exchange_handler& app,
                 std::shared_ptr<connection_tracker> tracker)
  : stream_{std::move(socket)}, limits_{limits}, app_{app}, tracker_{std::move(tracker)} {
  beast::error_code ec;
  auto ep = stream_.socket().remote_endpoint(ec);
  peer_.address = ec ? "unknown" : ep.address().to_string();
}

session::~session() {
  if (tracker_)
    tracker_->remove(this);
}

void session::start() {
  tracker_->add(this, weak_from_this());
  net::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->do_read(); });
}

void session::drain() {
  net::post(stream_.get_executor(), [self = shared_from_this()] {
    self->read_closed_ = true;
    self->close_if_done();
  });
}

void session::do_read() {
  if (read_closed_ || closed_ || reading_ || queue_.size() >= limits_.pipeline_limit)
    return;
  reading_ = true;
  parser_.emplace();
  parser_->header_limit(static_cast<std::uint32_t>(limits_.header_limit));
  parser_->body_limit(limits_.body_limit);
  // The deadline covers the whole request, so a client trickling bytes
  // (slowloris) or idling on keep-alive is cut off after read_timeout.
  read_deadline_ = deadline_after(limits_.read_timeout);
  bhttp::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&session::on_read, shared_from_this()));
}

void session::on_read(beast::error_code ec, std::size_t) {
  reading_ = false;
  read_deadline_ = 0;
  if (closed_)
    return;
  if (ec == bhttp::error::header_limit) {
    enqueue_protocol_error(protocol_error::headers_too_large, {});
  } else if (ec == bhttp::error::body_limit) {
    enqueue_protocol_error(protocol_error::body_too_large, {});
  } else if (ec && ec.category() == make_error_code(bhttp::error::end_of_stream).category()
             && ec != bhttp::error::end_of_stream && ec != bhttp::error::partial_message) {
    enqueue_protocol_error(protocol_error::malformed, ec.message());
  } else if (ec) { // end of stream, reset, or the connection is being drained
    read_closed_ = true;
    close_if_done();
    return;
  } else {
    auto seq = next_seq_++;
    queue_.push_back({seq, std::nullopt, {}});
    app_.on_request(parser_->release(), peer_, make_responder(seq));
    do_read();
    return;
  }
}

void session::enqueue_protocol_error(protocol_error e, const std::string& detail) {
  read_closed_ = true; // the byte stream is out of step: answer, then close
  auto seq = next_seq_++;
  queue_.push_back({seq, std::nullopt, {}});
  app_.on_protocol_error(e, detail, peer_, make_responder(seq));
}

responder session::make_responder(uint64_t seq) {
  return [self = shared_from_this(), seq](outgoing_response res) mutable {
    net::post(self->stream_.get_executor(),
              [self, seq, res = std::move(res)]() mutable { self->deliver(seq, std::move(res)); });
  };
}

void session::deliver(uint64_t seq, outgoing_response res) {
  if (closed_ || queue_.empty())
    return;
  auto index = seq - queue_.front().seq;
  if (index >= queue_.size())
    return;
  queue_[index].response = std::move(res);
  do_write();
}

void session::do_write() {
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
  write_deadline_ = deadline_after(limits_.read_timeout);
  net::async_write(stream_, buffers, beast::bind_front_handler(&session::on_write, shared_from_this()));
}

void session::on_write(beast::error_code ec, std::size_t) {
  writing_ = false;
  write_deadline_ = 0;
  // An expiry may have emptied the queue after this write completed.
  if (ec || closed_ || queue_.empty()) {
    close();
    return;
  }
  bool keep_alive = queue_.front().response->keep_alive;
  queue_.pop_front();
  if (!keep_alive) {
    close();
    return;
  }
  do_write();
  do_read();
  close_if_done();
}

bool session::overdue(std::chrono::steady_clock::time_point now) const {
  auto t = now.time_since_epoch().count();
  auto r = read_deadline_.load(std::memory_order_relaxed), w = write_deadline_.load(std::memory_order_relaxed);
  return (r != 0 && t > r) || (w != 0 && t > w);
}

void session::expire() {
  // Close only: a write in flight may still use its slot's buffers, which the
  // slots keep alive until the session itself goes away.
  net::post(stream_.get_executor(), [self = shared_from_this()] { self->close(); });
}

void session::close_if_done() {
  if (read_closed_ && queue_.empty() && !writing_)
    close();
}

void session::close() {
  if (closed_)
    return;
  closed_ = true;
  beast::error_code ec;
  stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  stream_.socket().close(ec);
}

} // namespace svc::http
