#include "bench/receiver/https_receiver.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace svc::receiver {
namespace {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;

constexpr std::chrono::seconds io_timeout{10}; ///< handshake and each write

} // namespace

class receiver_session;

struct https_receiver::impl {
  explicit impl(receiver_options o) : options(std::move(o)), acceptor(net::make_strand(ioc)), retry_timer(acceptor.get_executor()) {
    ctx.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                    ssl::context::single_dh_use);
    ctx.use_certificate_chain(net::buffer(options.tls.cert));
    ctx.use_private_key(net::buffer(options.tls.key), ssl::context::pem);
    tcp::endpoint ep(net::ip::make_address("127.0.0.1"), 0);
    acceptor.open(ep.protocol());
    acceptor.set_option(net::socket_base::reuse_address(true));
    acceptor.bind(ep);
    acceptor.listen(net::socket_base::max_listen_connections);
    port = acceptor.local_endpoint().port();
    do_accept();
    for (std::size_t i = 0; i < std::max<std::size_t>(1, options.threads); ++i)
      threads.emplace_back([this] { ioc.run(); });
  }

  void do_accept();
  void stop();

  // What to answer `r`: the handler's reply, or the fixed one.
  reply answer_for(const received_request& r) {
    std::shared_ptr<const std::function<reply(const received_request&)>> h;
    {
      std::lock_guard lock(mutex);
      if (!handler)
        return fixed_reply;
      h = handler;
    }
    try {
      return (*h)(r);
    } catch (const std::exception& e) {
      reply r;
      r.status = 500;
      r.body = std::string("handler threw: ") + e.what();
      return r;
    }
  }

  void record(received_request r) {
    {
      std::lock_guard lock(mutex);
      log.push_back(std::move(r));
    }
    cv.notify_all();
  }

  receiver_options options;
  ssl::context ctx{ssl::context::tls_server};
  mutable std::mutex mutex; ///< guards what follows up to `stopping`
  mutable std::condition_variable cv;
  std::vector<received_request> log;
  reply fixed_reply;
  std::shared_ptr<const std::function<reply(const received_request&)>> handler;
  std::unordered_map<receiver_session*, std::weak_ptr<receiver_session>> sessions;
  bool stopping = false;
  std::mutex stop_mutex;
  std::atomic<std::size_t> accepted{0}, open{0}, answered{0};
  uint16_t port = 0;
  net::io_context ioc; // after everything its handlers use; before what uses it
  tcp::acceptor acceptor;
  net::steady_timer retry_timer; ///< backs off after a failed accept
  std::vector<std::thread> threads;
};

// One connection: handshake, then read a request, answer it, repeat.
class receiver_session : public std::enable_shared_from_this<receiver_session> {
public:
  receiver_session(tcp::socket socket, https_receiver::impl& owner, std::size_t ordinal)
      : stream_(std::move(socket), owner.ctx), delay_(stream_.get_executor()), owner_(owner), ordinal_(ordinal) {}

  ~receiver_session() {
    std::lock_guard lock(owner_.mutex);
    owner_.sessions.erase(this);
    --owner_.open;
  }

  void start() {
    {
      std::lock_guard lock(owner_.mutex);
      ++owner_.open;
      owner_.sessions.emplace(this, weak_from_this());
      if (owner_.stopping)
        return;
    }
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
      beast::get_lowest_layer(self->stream_).expires_after(io_timeout);
      self->stream_.async_handshake(ssl::stream_base::server, [self](error_code ec) {
        if (!ec)
          self->do_read();
      });
    });
  }

  /// Closes the connection (on the receiver_session's strand).
  void close() {
    delay_.cancel();
    beast::get_lowest_layer(stream_).close();
  }

  /// Closes if waiting for the next request (on the receiver_session's strand).
  void close_if_idle() {
    if (idle_)
      close();
  }

  net::any_io_executor executor() { return stream_.get_executor(); }

private:
  void do_read() {
    idle_ = true;
    parser_.emplace();
    parser_->body_limit(owner_.options.body_limit);
    beast::get_lowest_layer(stream_).expires_after(owner_.options.idle_timeout);
    bhttp::async_read(stream_, buffer_, *parser_,
                      [self = shared_from_this()](error_code ec, std::size_t) { self->on_read(ec); });
  }

  void on_read(error_code ec) {
    idle_ = false;
    if (ec)
      return close();
    auto& req = parser_->get();
    received_request r;
    r.method = std::string(req.method_string());
    r.target = std::string(req.target());
    for (auto& f : req)
      r.headers.emplace_back(std::string(f.name_string()), std::string(f.value()));
    r.body = std::move(req.body());
    r.received_at = std::chrono::system_clock::now();
    r.connection = ordinal_;
    reply rep = owner_.answer_for(r);
    owner_.record(std::move(r));

    res_ = {};
    res_.version(req.version());
    res_.result(rep.status);
    for (auto& [name, value] : rep.headers)
      res_.set(name, value);
    res_.body() = std::move(rep.body);
    res_.keep_alive(req.keep_alive() && !rep.close);
    res_.prepare_payload();
    if (rep.delay.count() > 0) {
      delay_.expires_after(rep.delay);
      delay_.async_wait([self = shared_from_this()](error_code ec) {
        if (!ec)
          self->do_write();
      });
    } else {
      do_write();
    }
  }

  void do_write() {
    beast::get_lowest_layer(stream_).expires_after(io_timeout);
    bhttp::async_write(stream_, res_, [self = shared_from_this()](error_code ec, std::size_t) {
      if (ec)
        return self->close();
      ++self->owner_.answered;
      if (!self->res_.keep_alive())
        return self->close();
      self->do_read();
    });
  }

  ssl::stream<beast::tcp_stream> stream_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  bhttp::response<bhttp::string_body> res_;
  net::steady_timer delay_;
  https_receiver::impl& owner_;
  std::size_t ordinal_;
  bool idle_ = false; ///< waiting for the next request
};

void https_receiver::impl::do_accept() {
  acceptor.async_accept(net::make_strand(ioc), [this](error_code ec, tcp::socket socket) {
    if (!acceptor.is_open())
      return;
    if (ec) { // e.g. out of descriptors: try again shortly
      retry_timer.expires_after(std::chrono::milliseconds{10});
      retry_timer.async_wait([this](error_code ec) {
        if (!ec)
          do_accept();
      });
      return;
    }
    std::make_shared<receiver_session>(std::move(socket), *this, ++accepted)->start();
    do_accept();
  });
}

void https_receiver::impl::stop() {
  std::lock_guard stop_lock(stop_mutex);
  std::vector<std::shared_ptr<receiver_session>> live;
  {
    std::lock_guard lock(mutex);
    stopping = true;
    for (auto& [p, w] : sessions)
      if (auto s = w.lock())
        live.push_back(std::move(s));
  }
  net::post(acceptor.get_executor(), [this] {
    error_code ec;
    acceptor.close(ec);
    retry_timer.cancel();
  });
  for (auto& s : live)
    net::post(s->executor(), [s] { s->close(); });
  live.clear();
  for (auto& t : threads)
    if (t.joinable())
      t.join();
}

std::optional<std::string> received_request::header(std::string_view name) const {
  for (auto& [n, v] : headers)
    if (n.size() == name.size() &&
        std::equal(n.begin(), n.end(), name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        }))
      return v;
  return std::nullopt;
}

https_receiver::https_receiver(receiver_options options) {
  try {
    impl_ = std::make_unique<impl>(std::move(options));
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error(std::string("https_receiver: ") + e.what());
  }
}

https_receiver::~https_receiver() { stop(); }

uint16_t https_receiver::port() const { return impl_->port; }

std::string https_receiver::url(std::string_view path) const {
  return "https://127.0.0.1:" + std::to_string(impl_->port) + std::string(path);
}

void https_receiver::set_reply(reply r) {
  std::lock_guard lock(impl_->mutex);
  impl_->fixed_reply = std::move(r);
}

void https_receiver::set_handler(std::function<reply(const received_request&)> f) {
  std::lock_guard lock(impl_->mutex);
  impl_->handler = f ? std::make_shared<const std::function<reply(const received_request&)>>(std::move(f)) : nullptr;
}

std::vector<received_request> https_receiver::requests() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->log;
}

std::size_t https_receiver::request_count() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->log.size();
}

bool https_receiver::wait_for(std::size_t count, std::chrono::steady_clock::time_point deadline) const {
  std::unique_lock lock(impl_->mutex);
  return impl_->cv.wait_until(lock, deadline, [&] { return impl_->log.size() >= count; });
}

void https_receiver::clear() {
  std::lock_guard lock(impl_->mutex);
  impl_->log.clear();
}

std::size_t https_receiver::accepted_connections() const { return impl_->accepted; }
std::size_t https_receiver::open_connections() const { return impl_->open; }
std::size_t https_receiver::answered() const { return impl_->answered; }

void https_receiver::close_idle_connections() {
  std::vector<std::shared_ptr<receiver_session>> live;
  {
    std::lock_guard lock(impl_->mutex);
    if (impl_->stopping)
      return;
    for (auto& [p, w] : impl_->sessions)
      if (auto s = w.lock())
        live.push_back(std::move(s));
  }
  struct latch {
    std::mutex m;
    std::condition_variable cv;
    std::size_t left;
  };
  auto done = std::make_shared<latch>();
  done->left = live.size();
  for (auto& s : live)
    net::post(s->executor(), [s, done] {
      s->close_if_idle();
      std::lock_guard lock(done->m);
      if (--done->left == 0)
        done->cv.notify_all();
    });
  std::unique_lock lock(done->m);
  done->cv.wait(lock, [&] { return done->left == 0; });
}

void https_receiver::stop() { impl_->stop(); }

} // namespace svc::receiver
