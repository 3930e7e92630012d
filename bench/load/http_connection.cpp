#include "bench/load/http_connection.hpp"

#include <boost/asio/write.hpp>

namespace svc::bench {

http_connection::http_connection(net::io_context& io, net::ip::tcp::endpoint server, steady::duration timeout)
  : stream_(io), server_(server), timeout_(timeout) {}

void http_connection::send(std::string request, handler done) {
  request_ = std::move(request);
  done_ = std::move(done);
  result_ = exchange{};
  result_.sent = steady::now();
  // One deadline for the whole exchange: cheaper than re-arming it per operation.
  stream_.expires_after(timeout_);
  if (connected_) {
    write();
    return;
  }
  stream_.async_connect(server_, [self = shared_from_this()](beast::error_code ec) { self->on_connect(ec); });
}

void http_connection::close() {
  beast::error_code ignored;
  stream_.socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
  stream_.close();
  connected_ = false;
}

void http_connection::on_connect(beast::error_code ec) {
  if (ec)
    return finish(ec);
  connected_ = true;
  // Each request goes out in one write and waits for its answer: without this,
  // Nagle would hold a request until the ACK of the previous answer.
  stream_.socket().set_option(net::ip::tcp::no_delay(true), ec);
  write();
}

void http_connection::write() {
  net::async_write(stream_, net::buffer(request_),
                   [self = shared_from_this()](beast::error_code ec, std::size_t n) { self->on_write(ec, n); });
}

void http_connection::on_write(beast::error_code ec, std::size_t) {
  if (ec)
    return finish(ec);
  parser_.emplace();
  // Job records are under 4 KiB; a larger answer means something is wrong.
  parser_->body_limit(1 << 20);
  http::async_read(stream_, buffer_, *parser_,
                   [self = shared_from_this()](beast::error_code ec, std::size_t n) { self->on_read(ec, n); });
}

void http_connection::on_read(beast::error_code ec, std::size_t) {
  if (ec)
    return finish(ec);
  result_.response = parser_->release();
  if (!result_.response.keep_alive())
    close();
  finish({});
}

void http_connection::finish(beast::error_code ec) {
  result_.answered = steady::now();
  result_.error = ec;
  if (ec) {
    buffer_.clear();
    close();
  }
  // The handler may send the next request on this connection, which resets
  // `done_` and `result_`: hand it moved-out copies.
  auto done = std::move(done_);
  auto result = std::move(result_);
  done(result);
}

} // namespace svc::bench
