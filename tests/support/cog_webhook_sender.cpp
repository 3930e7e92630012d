#include "cog_webhook_sender.hpp"

#include <chrono>
#include <limits>
#include <optional>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/url/parse.hpp>

namespace svc::test {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;

// Cog's numbers (coglet webhook.rs, cog webhook.py).
constexpr int max_retries = 12;
constexpr auto first_backoff = std::chrono::milliseconds{100};
constexpr auto attempt_timeout = std::chrono::seconds{30};

bool retryable(int answer) {
  return answer == 0 || answer == 429 || answer == 500 || answer == 502 || answer == 503 || answer == 504;
}

// Where `url` points, when it is plain http to this machine: a test must never reach out further.
std::optional<tcp::endpoint> loopback_endpoint(const boost::urls::url_view& u) {
  if (u.scheme() != "http")
    return std::nullopt;
  std::string host = u.host_address();
  if (host == "localhost")
    host = "127.0.0.1";
  error_code ec;
  auto address = net::ip::make_address(host, ec);
  if (ec || !address.is_loopback())
    return std::nullopt;
  return tcp::endpoint(address, u.has_port() ? u.port_number() : 80);
}

} // namespace

struct cog_webhook_sender::delivery {
  explicit delivery(net::io_context& ioc) : stream(ioc), backoff(ioc) {}
  std::uint64_t lane = 0;
  std::function<void(int)> attempted;
  bool retried = false;
  int tries = 0;
  bool abandoned = false; // its handlers may still be queued; they must not touch the lanes
  std::optional<tcp::endpoint> to; // none: not a URL it may call, so every try fails at once
  bhttp::request<bhttp::string_body> request;
  beast::tcp_stream stream;
  net::steady_timer backoff;
  beast::flat_buffer buffer;
  bhttp::response<bhttp::string_body> response;
};

void cog_webhook_sender::send(std::uint64_t lane, cog_webhook_post post, std::function<void(int)> attempted) {
  if (stopped_)
    return;
  auto d = std::make_shared<delivery>(ioc_);
  d->lane = lane;
  d->attempted = std::move(attempted);
  d->retried = post.retried;
  d->request.method(bhttp::verb::post);
  d->request.version(11);
  if (auto u = boost::urls::parse_uri(post.url)) {
    d->to = loopback_endpoint(*u);
    std::string target{u->encoded_target()};
    d->request.target(target.empty() ? "/" : target);
    d->request.set(bhttp::field::host, u->encoded_host_and_port());
  }
  d->request.set(bhttp::field::content_type, "application/json");
  d->request.set(bhttp::field::user_agent, post.user_agent);
  if (!post.authorization.empty())
    d->request.set(bhttp::field::authorization, post.authorization);
  d->request.body() = std::move(post.body);
  d->request.prepare_payload();
  auto& queue = lanes_[lane];
  queue.push_back(d);
  if (queue.size() == 1)
    attempt(d);
}

void cog_webhook_sender::attempt(const std::shared_ptr<delivery>& d) {
  if (!d->to) {
    net::post(ioc_, [this, d] { done(d, 0); });
    return;
  }
  d->stream.expires_after(attempt_timeout);
  d->stream.async_connect(*d->to, [this, d](error_code ec) {
    if (ec)
      return done(d, 0);
    bhttp::async_write(d->stream, d->request, [this, d](error_code ec, std::size_t) {
      if (ec)
        return done(d, 0);
      d->response = {};
      d->buffer.clear();
      bhttp::async_read(d->stream, d->buffer, d->response, [this, d](error_code ec, std::size_t) {
        done(d, ec ? 0 : static_cast<int>(d->response.result_int()));
      });
    });
  });
}

void cog_webhook_sender::done(const std::shared_ptr<delivery>& d, int answer) {
  if (d->abandoned)
    return;
  d->attempted(answer);
  d->stream.close();
  if (d->retried && d->tries < max_retries && retryable(answer)) {
    d->backoff.expires_after(first_backoff * (1 << d->tries));
    ++d->tries;
    d->backoff.async_wait([this, d](error_code ec) {
      if (!ec && !d->abandoned)
        attempt(d);
    });
    return;
  }
  auto& queue = lanes_[d->lane];
  queue.pop_front();
  if (queue.empty())
    lanes_.erase(d->lane);
  else
    attempt(queue.front());
}

void cog_webhook_sender::abandon(std::uint64_t last) {
  for (auto it = lanes_.begin(); it != lanes_.end() && it->first <= last; it = lanes_.erase(it))
    for (auto& d : it->second) {
      d->abandoned = true;
      d->stream.close();
      d->backoff.cancel();
    }
}

void cog_webhook_sender::stop() {
  stopped_ = true;
  abandon(std::numeric_limits<std::uint64_t>::max());
}

} // namespace svc::test
