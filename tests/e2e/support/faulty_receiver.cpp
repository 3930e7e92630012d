#include "support/faulty_receiver.hpp"

#include <condition_variable>
#include <mutex>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include "support/webhook_receiver_fixture.hpp"
#include "tests/support/loopback_listener.hpp"

namespace svc::e2e {
namespace {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;
using steady = std::chrono::steady_clock;

constexpr std::size_t chunk_bytes = 64 * 1024;
// Long enough for svcd to have read the half answer before the reset, so it
// sees the reset while reading the body, not instead of the head.
constexpr std::chrono::milliseconds pause_before_reset{100};

// One chunk of the huge body in chunked transfer coding.
const std::string& body_chunk() {
  static const std::string chunk = "10000\r\n" + std::string(chunk_bytes, 'x') + "\r\n";
  return chunk;
}

} // namespace

struct faulty_receiver::impl {
  explicit impl(receiver_fault f) : fault(f) {
    tls.use_certificate_chain(net::buffer(webhook_test_pki().server.cert));
    tls.use_private_key(net::buffer(webhook_test_pki().server.key), ssl::context::pem);
  }

  // One accepted connection and what is known about it.
  struct connection {
    connection(tcp::socket s, ssl::context& ctx) : stream(std::move(s), ctx), timer(stream.get_executor()) {}
    ssl::stream<tcp::socket> stream;
    net::steady_timer timer;
    std::string in;
    char scratch[4096];
    steady::time_point misbehaving_since;
    std::uint64_t taken = 0;
  };
  using connection_ptr = std::shared_ptr<connection>;

  void accept() {
    listener.acceptor.async_accept([this](error_code ec, tcp::socket socket) {
      if (ec)
        return;
      auto conn = std::make_shared<connection>(std::move(socket), tls);
      live.push_back(conn);
      count([&] { ++accepted; });
      serve(conn);
      accept();
    });
  }

  void serve(const connection_ptr& conn) {
    if (fault == receiver_fault::silent) {
      conn->misbehaving_since = steady::now();
      return watch_for_close(conn);
    }
    if (fault == receiver_fault::reset_in_handshake) {
      // The ClientHello arrives first; reset instead of answering it.
      conn->stream.next_layer().async_read_some(net::buffer(conn->scratch),
                                                [conn](error_code, std::size_t) { reset(conn); });
      return;
    }
    conn->stream.async_handshake(ssl::stream_base::server, [this, conn](error_code ec) {
      if (ec)
        return;
      net::async_read_until(conn->stream, net::dynamic_buffer(conn->in), "\r\n\r\n",
                            [this, conn](error_code ec, std::size_t) {
                              if (!ec)
                                on_request(conn);
                            });
    });
  }

  void on_request(const connection_ptr& conn) {
    conn->misbehaving_since = steady::now();
    count([&] { ++requests; });
    switch (fault) {
    case receiver_fault::never_answers:
      return watch_for_close(conn);
    case receiver_fault::huge_body:
      return write_huge(conn, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n");
    case receiver_fault::reset_in_answer:
      return write_half_then_reset(conn);
    case receiver_fault::silent:
    case receiver_fault::reset_in_handshake:
      return;
    }
  }

  // Reads (and drops) whatever comes until svcd closes the connection; on
  // the TCP stream itself while no handshake was made.
  void watch_for_close(const connection_ptr& conn) {
    auto next = [this, conn](error_code ec, std::size_t) {
      if (ec)
        return closed_by_peer(conn);
      watch_for_close(conn);
    };
    if (fault == receiver_fault::silent)
      return conn->stream.next_layer().async_read_some(net::buffer(conn->scratch), next);
    conn->stream.async_read_some(net::buffer(conn->scratch), next);
  }

  void write_huge(const connection_ptr& conn, std::string head) {
    auto bytes = std::make_shared<std::string>(std::move(head));
    net::async_write(conn->stream, net::buffer(*bytes), [this, conn, bytes](error_code ec, std::size_t) {
      if (ec)
        return closed_by_peer(conn);
      write_chunks(conn);
    });
  }

  void write_chunks(const connection_ptr& conn) {
    if (conn->taken >= huge_body_bytes) {
      net::async_write(conn->stream, net::buffer(std::string_view("0\r\n\r\n")),
                       [this, conn](error_code ec, std::size_t) {
                         if (ec)
                           return closed_by_peer(conn);
                         count([&] { ++finished; });
                         watch_for_close(conn);
                       });
      return;
    }
    net::async_write(conn->stream, net::buffer(body_chunk()), [this, conn](error_code ec, std::size_t) {
      if (ec)
        return closed_by_peer(conn);
      conn->taken += chunk_bytes;
      count([&] { taken += chunk_bytes; });
      write_chunks(conn);
    });
  }

  void write_half_then_reset(const connection_ptr& conn) {
    static const std::string half = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n" +
                                    std::string(100, 'x');
    net::async_write(conn->stream, net::buffer(half), [conn](error_code ec, std::size_t) {
      if (ec)
        return reset(conn);
      conn->timer.expires_after(pause_before_reset);
      conn->timer.async_wait([conn](error_code) { reset(conn); });
    });
  }

  // Closes with SO_LINGER 0: the peer gets a TCP reset, not an orderly end.
  static void reset(const connection_ptr& conn) {
    error_code ignored;
    auto& socket = conn->stream.next_layer();
    socket.set_option(net::socket_base::linger(true, 0), ignored);
    socket.close(ignored);
  }

  void closed_by_peer(const connection_ptr& conn) {
    auto open = std::chrono::duration_cast<std::chrono::milliseconds>(steady::now() - conn->misbehaving_since);
    count([&] { closes.push_back(open); });
    error_code ignored;
    conn->stream.next_layer().close(ignored);
  }

  // Changes counters under the lock and wakes the waiters.
  template <class F>
  void count(F&& change) {
    {
      std::lock_guard lock(mutex);
      change();
    }
    cv.notify_all();
  }

  template <class Pred>
  bool wait(std::chrono::milliseconds timeout, Pred pred) const {
    std::unique_lock lock(mutex);
    return cv.wait_for(lock, timeout, pred);
  }

  const receiver_fault fault;
  ssl::context tls{ssl::context::tls_server};
  mutable std::mutex mutex; ///< guards the counters
  mutable std::condition_variable cv;
  std::size_t accepted = 0;
  std::size_t requests = 0;
  std::vector<std::chrono::milliseconds> closes;
  std::uint64_t taken = 0;
  std::size_t finished = 0;

  std::vector<std::weak_ptr<connection>> live; ///< the io thread's alone
  test::loopback_listener listener; // after everything its handlers use
};

faulty_receiver::faulty_receiver(receiver_fault fault) : impl_(std::make_unique<impl>(fault)) {
  impl_->accept();
  impl_->listener.start();
}

faulty_receiver::~faulty_receiver() { stop(); }

std::string faulty_receiver::url(std::string_view path) const {
  return "https://127.0.0.1:" + std::to_string(impl_->listener.port) + std::string(path);
}

std::size_t faulty_receiver::accepted() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->accepted;
}

std::size_t faulty_receiver::requests() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->requests;
}

std::vector<std::chrono::milliseconds> faulty_receiver::closed_by_svcd() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->closes;
}

std::uint64_t faulty_receiver::body_bytes_taken() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->taken;
}

std::size_t faulty_receiver::bodies_finished() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->finished;
}

bool faulty_receiver::wait_for_accepted(std::size_t n, std::chrono::milliseconds timeout) const {
  return impl_->wait(timeout, [&] { return impl_->accepted >= n; });
}

bool faulty_receiver::wait_for_requests(std::size_t n, std::chrono::milliseconds timeout) const {
  return impl_->wait(timeout, [&] { return impl_->requests >= n; });
}

bool faulty_receiver::wait_for_closes(std::size_t n, std::chrono::milliseconds timeout) const {
  return impl_->wait(timeout, [&] { return impl_->closes.size() >= n; });
}

void faulty_receiver::stop() {
  impl_->listener.stop([i = impl_.get()] {
    error_code ignored;
    for (auto& w : i->live)
      if (auto conn = w.lock())
        conn->stream.next_layer().close(ignored);
  });
}

} // namespace svc::e2e
