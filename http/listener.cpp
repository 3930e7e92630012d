#include "http/listener.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/host_port.hpp"
#include "core/log.hpp"
#include "http/session.hpp"

namespace svc::http {

bool connection_tracker::add(connection* s, std::weak_ptr<connection> w, const std::string& key, std::size_t per_key_limit) {
  std::lock_guard<std::mutex> guard{mutex_};
  if (!key.empty()) {
    auto& n = per_key_[key];
    if (n >= per_key_limit)
      return false;
    ++n;
  }
  live_.emplace(s, entry{std::move(w), key});
  if (open_gauge)
    open_gauge->add(1);
  return true;
}

void connection_tracker::remove(connection* s) {
  {
    std::lock_guard<std::mutex> guard{mutex_};
    auto it = live_.find(s);
    if (it != live_.end()) {
      if (auto k = per_key_.find(it->second.key); k != per_key_.end() && --k->second == 0)
        per_key_.erase(k);
      live_.erase(it);
      if (open_gauge)
        open_gauge->add(-1);
    }
  }
  if (on_remove)
    on_remove();
}

std::size_t connection_tracker::count() const {
  std::lock_guard<std::mutex> guard{mutex_};
  return live_.size();
}

void connection_tracker::drain_all() {
  std::vector<std::shared_ptr<connection>> sessions;
  {
    std::lock_guard<std::mutex> guard{mutex_};
    for (auto& [ptr, e] : live_)
      if (auto s = e.weak.lock())
        sessions.push_back(std::move(s));
  }
  for (auto& s : sessions)
    s->drain();
}

void connection_tracker::expire_overdue(bool busy) {
  auto now = std::chrono::steady_clock::now();
  std::vector<std::shared_ptr<connection>> late;
  {
    std::lock_guard<std::mutex> guard{mutex_};
    for (auto& [ptr, e] : live_)
      if (ptr->overdue(now, busy))
        if (auto s = e.weak.lock())
          late.push_back(std::move(s));
  }
  for (auto& s : late)
    s->expire();
}

listener::listener(net::io_context& ioc, const std::string& host_port, const transport_limits& limits,
                   std::shared_ptr<response_budget> budget)
  : ioc_{ioc}, strand_{net::make_strand(ioc)}, acceptor_{strand_}, retry_timer_{strand_}, sweep_timer_{strand_}, limits_{limits},
    tracker_{std::make_shared<connection_tracker>()} {
  tracker_->budget = std::move(budget);
  auto ep = core::parse_endpoint(host_port);
  beast::error_code ec;
  acceptor_.open(ep.protocol(), ec);
  if (!ec)
    acceptor_.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec)
    acceptor_.bind(ep, ec);
  if (!ec)
    acceptor_.listen(net::socket_base::max_listen_connections, ec);
  if (ec)
    throw std::runtime_error("cannot listen on " + host_port + ": " + ec.message());
}

tcp::endpoint listener::local_endpoint() const {
  beast::error_code ec;
  return acceptor_.local_endpoint(ec);
}

void listener::start(exchange_handler& app) {
  app_ = &app;
  // A connection ending frees a slot: resume accepting if we had paused.
  std::weak_ptr<listener> weak = shared_from_this();
  tracker_->on_remove = [weak] {
    if (auto self = weak.lock())
      net::post(self->strand_, [self] { self->do_accept(); });
  };
  net::dispatch(strand_, [self = shared_from_this()] {
    self->do_accept();
    self->sweep();
  });
}

void listener::sweep() {
  // Past 75% of the connection cap, idle connections make room sooner.
  tracker_->expire_overdue(tracker_->count() * 4 > limits_.max_connections * 3);
  // A quarter of the timeout: deadlines hold to within 25% (at most 1 s late).
  auto shortest = std::min({limits_.read_timeout, limits_.busy_idle_timeout, limits_.body_rate_window});
  auto period = std::clamp<core::duration>(shortest / 4, std::chrono::milliseconds{20}, std::chrono::seconds{1});
  sweep_timer_.expires_after(period);
  sweep_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
    if (!ec)
      self->sweep();
  });
}

void listener::drain() {
  net::post(strand_, [self = shared_from_this()] {
    self->stopped_ = true;
    beast::error_code ec;
    self->acceptor_.close(ec);
    self->tracker_->drain_all();
  });
}

void listener::do_accept() {
  if (stopped_ || accepting_ || tracker_->count() >= limits_.max_connections)
    return;
  accepting_ = true;
  // With one asio thread every handler is already serialised; a strand per
  // connection would only add an executor indirection to each operation.
  net::any_io_executor executor = limits_.io_threads > 1 ? net::any_io_executor{net::make_strand(ioc_)}
                                                         : net::any_io_executor{ioc_.get_executor()};
  acceptor_.async_accept(executor, beast::bind_front_handler(&listener::on_accept, shared_from_this()));
}

void listener::on_accept(beast::error_code ec, tcp::socket socket) {
  accepting_ = false;
  if (stopped_)
    return;
  if (ec) {
    // Out of file descriptors and similar: log, and keep serving the others.
    if (ec != net::error::operation_aborted) {
      core::log_warn("http", "accept failed: " + ec.message());
      retry_timer_.expires_after(std::chrono::milliseconds{100});
      retry_timer_.async_wait([self = shared_from_this()](beast::error_code) { self->do_accept(); });
      return;
    }
  } else {
    socket.set_option(tcp::no_delay(true), ec);
    std::make_shared<session>(beast::tcp_stream{std::move(socket)}, limits_, *app_, tracker_)->start();
  }
  do_accept();
}

} // namespace svc::http
