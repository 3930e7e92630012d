#include "support/raw_connection.hpp"

#include <stdexcept>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>

#include "support/http_client.hpp"

namespace svc::e2e {
namespace net = boost::asio;
using tcp = net::ip::tcp;
using boost::system::error_code;

struct raw_connection::impl {
  net::io_context ioc;
  tcp::socket socket{ioc};
  bool closed = false;

  // Runs the pending operation for at most `timeout`, then cancels it.
  void run_for(std::chrono::milliseconds timeout) {
    ioc.restart();
    ioc.run_for(timeout);
    if (!ioc.stopped()) {
      error_code ignored;
      socket.cancel(ignored);
      ioc.run();
    }
  }

  bool is_close(const error_code& ec) {
    return ec == net::error::eof || ec == net::error::connection_reset || ec == net::error::broken_pipe
           || ec == net::error::connection_aborted || ec == net::error::not_connected;
  }
};

raw_connection::raw_connection(const std::string& base_url) : impl_(std::make_unique<impl>()) {
  auto addr = parse_http_url(base_url);
  tcp::resolver resolver{impl_->ioc};
  net::connect(impl_->socket, resolver.resolve(addr.host, std::to_string(addr.port)));
  impl_->socket.set_option(tcp::no_delay{true});
}

raw_connection::~raw_connection() {
  error_code ignored;
  impl_->socket.close(ignored);
}

bool raw_connection::send(std::string_view bytes, std::chrono::milliseconds timeout) {
  if (impl_->closed)
    return false;
  error_code ec;
  bool done = false;
  net::async_write(impl_->socket, net::buffer(bytes.data(), bytes.size()), [&](error_code e, std::size_t) {
    ec = e;
    done = true;
  });
  impl_->run_for(timeout);
  if (ec && impl_->is_close(ec))
    impl_->closed = true;
  return done && !ec;
}

read_result raw_connection::read_some(std::chrono::milliseconds timeout) {
  read_result out;
  if (impl_->closed) {
    out.closed = true;
    return out;
  }
  char buf[16384];
  error_code ec;
  std::size_t n = 0;
  impl_->socket.async_read_some(net::buffer(buf), [&](error_code e, std::size_t got) {
    ec = e;
    n = got;
  });
  impl_->run_for(timeout);
  out.data.assign(buf, n);
  if (ec && impl_->is_close(ec))
    impl_->closed = true;
  out.closed = impl_->closed;
  return out;
}

read_result raw_connection::read_until_close(std::chrono::milliseconds timeout) {
  read_result out;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!impl_->closed) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      break;
    auto part = read_some(left);
    out.data += part.data;
  }
  out.closed = impl_->closed;
  return out;
}

bool raw_connection::closed() const { return impl_->closed; }

} // namespace svc::e2e
