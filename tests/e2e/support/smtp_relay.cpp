#include "support/smtp_relay.hpp"

#include <array>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

namespace svc::e2e {
namespace {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;

constexpr std::chrono::milliseconds greeting_trickle{100};

// The reply to a command line, by its verb; empty for DATA's end, which the
// session answers itself.
std::string reply_to(const std::string& line) {
  auto verb = line.substr(0, line.find_first_of(" :"));
  if (verb == "EHLO")
    return "250-relay.test\r\n250 8BITMIME\r\n";
  if (verb == "HELO" || verb == "MAIL" || verb == "RCPT")
    return "250 ok\r\n";
  if (verb == "DATA")
    return "354 end with <CRLF>.<CRLF>\r\n";
  if (verb == "QUIT")
    return "221 bye\r\n";
  return "500 unknown command\r\n";
}

} // namespace

struct smtp_relay::impl {
  // One connection, treated as the relay behaved when it was accepted.
  struct session {
    session(tcp::socket s, relay_behaviour b) : socket(std::move(s)), timer(socket.get_executor()), behaviour(b) {}
    tcp::socket socket;
    net::steady_timer timer;
    relay_behaviour behaviour;
    std::string in;
    std::string message;
    bool in_data = false;
  };
  using session_ptr = std::shared_ptr<session>;

  impl() {
    tcp::endpoint ep(net::ip::make_address("127.0.0.1"), 0);
    acceptor.open(ep.protocol());
    acceptor.set_option(net::socket_base::reuse_address(true));
    acceptor.bind(ep);
    acceptor.listen();
    port = acceptor.local_endpoint().port();
  }

  void accept() {
    acceptor.async_accept([this](error_code ec, tcp::socket socket) {
      if (ec)
        return;
      relay_behaviour b;
      {
        std::lock_guard lock(mutex);
        b = behaviour;
        ++connections;
      }
      cv.notify_all();
      auto s = std::make_shared<session>(std::move(socket), b);
      live.push_back(s);
      start(s);
      accept();
    });
  }

  void start(const session_ptr& s) {
    switch (s->behaviour) {
    case relay_behaviour::never_greets:
      return stall(s);
    case relay_behaviour::endless_greeting:
      return trickle(s);
    case relay_behaviour::takes_mail:
    case relay_behaviour::stalls_after_data:
      return say(s, "220 relay.test ESMTP\r\n");
    }
  }

  void say(const session_ptr& s, std::string text) {
    auto bytes = std::make_shared<std::string>(std::move(text));
    net::async_write(s->socket, net::buffer(*bytes), [this, s, bytes](error_code ec, std::size_t) {
      if (!ec)
        read_line(s);
    });
  }

  void read_line(const session_ptr& s) {
    net::async_read_until(s->socket, net::dynamic_buffer(s->in), "\r\n", [this, s](error_code ec, std::size_t n) {
      if (ec)
        return;
      auto line = s->in.substr(0, n - 2);
      s->in.erase(0, n);
      if (!s->in_data) {
        s->in_data = line.rfind("DATA", 0) == 0;
        if (line.rfind("QUIT", 0) == 0)
          return say_and_close(s, reply_to(line));
        return say(s, reply_to(line));
      }
      if (line != ".") {
        s->message += (line.rfind('.', 0) == 0 ? line.substr(1) : line) + "\r\n";
        return read_line(s);
      }
      s->in_data = false;
      {
        std::lock_guard lock(mutex);
        messages.push_back(s->message);
      }
      cv.notify_all();
      if (s->behaviour == relay_behaviour::stalls_after_data)
        return stall(s);
      say(s, "250 queued\r\n");
    });
  }

  void say_and_close(const session_ptr& s, std::string text) {
    auto bytes = std::make_shared<std::string>(std::move(text));
    net::async_write(s->socket, net::buffer(*bytes), [s, bytes](error_code, std::size_t) {
      error_code ignored;
      s->socket.close(ignored);
    });
  }

  // Reads and drops what comes, answers nothing, until the client closes.
  void stall(const session_ptr& s) {
    auto scratch = std::make_shared<std::array<char, 1024>>();
    s->socket.async_read_some(net::buffer(*scratch), [this, s, scratch](error_code ec, std::size_t) {
      if (!ec)
        return stall(s);
      {
        std::lock_guard lock(mutex);
        ++closed_stalled;
      }
      cv.notify_all();
    });
  }

  void trickle(const session_ptr& s) {
    static const std::string line = "220-relay.test is still warming up\r\n";
    net::async_write(s->socket, net::buffer(line), [this, s](error_code ec, std::size_t) {
      if (ec) {
        std::lock_guard lock(mutex);
        ++closed_stalled;
        return;
      }
      s->timer.expires_after(greeting_trickle);
      s->timer.async_wait([this, s](error_code ec) {
        if (!ec)
          trickle(s);
      });
    });
  }

  template <class Pred>
  bool wait(std::chrono::milliseconds timeout, Pred pred) const {
    std::unique_lock lock(mutex);
    return cv.wait_for(lock, timeout, pred);
  }

  mutable std::mutex mutex; ///< guards what follows up to the io_context
  mutable std::condition_variable cv;
  relay_behaviour behaviour = relay_behaviour::takes_mail;
  std::size_t connections = 0;
  std::size_t closed_stalled = 0;
  std::vector<std::string> messages;

  net::io_context ioc; // after everything its handlers use
  tcp::acceptor acceptor{ioc};
  std::uint16_t port = 0;
  std::vector<std::weak_ptr<session>> live; ///< the io thread's alone
  std::thread thread;
  std::mutex stop_mutex;
};

smtp_relay::smtp_relay(relay_behaviour behaviour) : impl_(std::make_unique<impl>()) {
  impl_->behaviour = behaviour;
  impl_->accept();
  impl_->thread = std::thread([i = impl_.get()] { i->ioc.run(); });
}

smtp_relay::~smtp_relay() { stop(); }

std::string smtp_relay::address() const { return "127.0.0.1:" + std::to_string(impl_->port); }

void smtp_relay::set_behaviour(relay_behaviour behaviour) {
  std::lock_guard lock(impl_->mutex);
  impl_->behaviour = behaviour;
}

std::size_t smtp_relay::connections() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->connections;
}

std::size_t smtp_relay::closed_while_stalled() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->closed_stalled;
}

std::vector<std::string> smtp_relay::messages() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->messages;
}

bool smtp_relay::wait_for_connections(std::size_t n, std::chrono::milliseconds timeout) const {
  return impl_->wait(timeout, [&] { return impl_->connections >= n; });
}

bool smtp_relay::wait_for_messages(std::size_t n, std::chrono::milliseconds timeout) const {
  return impl_->wait(timeout, [&] { return impl_->messages.size() >= n; });
}

void smtp_relay::stop() {
  std::lock_guard lock(impl_->stop_mutex);
  if (!impl_->thread.joinable())
    return;
  net::post(impl_->ioc, [i = impl_.get()] {
    error_code ignored;
    i->acceptor.close(ignored);
    for (auto& w : i->live)
      if (auto s = w.lock()) {
        s->timer.cancel();
        s->socket.close(ignored);
      }
    i->ioc.stop();
  });
  impl_->thread.join();
}

} // namespace svc::e2e
