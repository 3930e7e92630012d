#pragma once
// The listening side of a test server on loopback (the fake back end, the
// faulty webhook receiver, the SMTP relay): an acceptor on 127.0.0.1 with a
// port the kernel picks, the io_context its handlers run on, the one thread
// that runs it, and a stop that closes everything on that thread.

#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>

namespace svc::test {

class loopback_listener {
public:
  /// Listens on 127.0.0.1, port chosen by the kernel; nothing runs until `start`.
  loopback_listener() {
    boost::asio::ip::tcp::endpoint ep(boost::asio::ip::make_address("127.0.0.1"), 0);
    acceptor.open(ep.protocol());
    acceptor.set_option(boost::asio::socket_base::reuse_address(true));
    acceptor.bind(ep);
    acceptor.listen();
    port = acceptor.local_endpoint().port();
  }
  /// The owner stops first (its handlers use its state); this only covers a forgotten stop.
  ~loopback_listener() { stop({}); }
  loopback_listener(const loopback_listener&) = delete;
  loopback_listener& operator=(const loopback_listener&) = delete;

  boost::asio::io_context ioc;
  boost::asio::ip::tcp::acceptor acceptor{ioc};
  std::uint16_t port = 0; ///< where `acceptor` listens

  /// Runs `ioc` on the listener's thread; queue the first accept before.
  void start() {
    thread_ = std::thread([this] { ioc.run(); });
  }

  /// On the io thread: closes the acceptor, runs `close_rest` (the owner's
  /// connections and timers) and stops `ioc`; then joins the thread. Idempotent.
  void stop(const std::function<void()>& close_rest) {
    std::lock_guard lock(stop_mutex_);
    if (!thread_.joinable())
      return;
    boost::asio::post(ioc, [this, &close_rest] {
      boost::system::error_code ignored;
      acceptor.close(ignored);
      if (close_rest)
        close_rest();
      ioc.stop();
    });
    thread_.join();
  }

private:
  std::thread thread_;
  std::mutex stop_mutex_;
};

} // namespace svc::test
