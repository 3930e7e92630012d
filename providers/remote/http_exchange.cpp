#include "providers/remote/http_exchange.hpp"

#include <boost/asio/connect.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

namespace svc::providers {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = net::ip::tcp;
using steady = std::chrono::steady_clock;

constexpr std::size_t answer_read_size = 64 * 1024;

// Parse errors are the peer speaking no HTTP; a message cut short, like
// socket errors, is a connection that went away.
bool is_parse_error(boost::system::error_code ec) {
  return ec.category() == bhttp::make_error_code(bhttp::error::bad_version).category() &&
         ec != bhttp::error::end_of_stream && ec != bhttp::error::partial_message;
}

} // namespace

std::vector<tcp::endpoint> resolve_endpoints(const std::string& host, std::uint16_t port, std::string& why) {
  net::io_context ioc;
  tcp::resolver resolver(ioc);
  boost::system::error_code ec;
  auto results = resolver.resolve(host, std::to_string(port), tcp::resolver::numeric_service, ec);
  std::vector<tcp::endpoint> out;
  if (ec) {
    why = "cannot resolve the host name: " + ec.message();
    return out;
  }
  for (auto& r : results)
    out.push_back(r.endpoint());
  if (out.empty())
    why = "cannot resolve the host name: no addresses";
  return out;
}

http_exchange::http_exchange(net::io_context& ioc, exchange_request request, done_fn done)
    : stream_(ioc), deadline_(request.deadline), body_limit_(request.body_limit), done_(std::move(done)) {
  request_.method(request.method);
  request_.target(request.target);
  request_.version(11);
  request_.set(bhttp::field::host, request.host);
  request_.set(bhttp::field::user_agent, "svc");
  request_.set(bhttp::field::accept, "application/json");
  // One request per connection: nothing is pooled, so the server may close at once.
  request_.set(bhttp::field::connection, "close");
  if (!request.authorization.empty())
    request_.set(bhttp::field::authorization, request.authorization);
  for (auto& [name, value] : request.headers)
    request_.set(name, value);
  if (!request.body.empty()) {
    request_.set(bhttp::field::content_type, request.content_type);
    request_.body() = std::move(request.body);
  }
  request_.prepare_payload();
  parser_.body_limit(request.body_limit);
  // Beast reads as much as the buffer holds, and an empty buffer holds 512
  // bytes: a 30 KB image took 60 reads.
  buffer_.reserve(answer_read_size);
  stream_.expires_at(request.connect_deadline);
}

std::shared_ptr<http_exchange> http_exchange::start(net::io_context& ioc, const std::vector<tcp::endpoint>& endpoints,
                                                    exchange_request request, done_fn done) {
  auto self = std::make_shared<http_exchange>(ioc, std::move(request), std::move(done));
  self->stream_.async_connect(endpoints, [self](boost::system::error_code ec, const tcp::endpoint&) {
    self->on_connect(ec);
  });
  return self;
}

void http_exchange::abort() {
  done_ = nullptr;
  stream_.close();
}

void http_exchange::on_connect(boost::system::error_code ec) {
  if (ec)
    return fail(exchange_fault::connect_failed, ec);
  stream_.expires_at(deadline_);
  bhttp::async_write(stream_, request_, [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
    self->on_write(ec);
  });
}

void http_exchange::on_write(boost::system::error_code ec) {
  if (ec)
    return fail(exchange_fault::connection_lost, ec);
  bhttp::async_read(stream_, buffer_, parser_, [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
    self->on_read(ec);
  });
}

void http_exchange::on_read(boost::system::error_code ec) {
  if (ec == bhttp::error::body_limit)
    return fail(exchange_fault::too_large, ec);
  if (ec)
    return fail(is_parse_error(ec) ? exchange_fault::bad_answer : exchange_fault::connection_lost, ec);
  stream_.close();
  auto& res = parser_.get();
  finish({exchange_fault::none, static_cast<int>(res.result_int()), std::move(res.body()), {}});
}

void http_exchange::fail(exchange_fault fault, boost::system::error_code ec) {
  stream_.close();
  std::string detail = ec.message();
  if (fault == exchange_fault::too_large)
    detail = "a body over " + std::to_string(body_limit_) + " bytes";
  if (ec == beast::error::timeout) {
    // The connect phase has a shorter deadline of its own; only the
    // exchange's deadline makes it a timeout.
    if (steady::now() >= deadline_)
      fault = exchange_fault::timed_out;
    detail = fault == exchange_fault::timed_out ? "no answer in time" : "connecting took too long";
  }
  finish({fault, 0, {}, std::move(detail)});
}

void http_exchange::finish(exchange_answer answer) {
  auto done = std::move(done_);
  done_ = nullptr;
  if (done)
    done(std::move(answer));
}

} // namespace svc::providers
