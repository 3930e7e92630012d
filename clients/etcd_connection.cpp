#include "clients/etcd_connection.hpp"

#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

namespace svc::clients {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;
using kind = etcd_error::kind;

std::vector<tcp::endpoint> addresses_of(const std::string& host, std::uint16_t port, net::io_context& ioc,
                                        const std::string& where) {
  error_code ec;
  auto address = net::ip::make_address(host, ec);
  if (!ec)
    return {tcp::endpoint{address, port}};
  std::vector<tcp::endpoint> found;
  tcp::resolver resolver{ioc};
  for (auto& entry : resolver.resolve(host, std::to_string(port), ec))
    found.push_back(entry.endpoint());
  if (ec || found.empty())
    throw etcd_error(kind::unreachable, "etcd " + where + ": cannot resolve: " + ec.message());
  return found;
}

} // namespace

etcd_connection::etcd_connection(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout,
                                 net::ssl::context* tls, std::string_view path, const std::string& body,
                                 std::string_view token)
    : where_(host + ":" + std::to_string(port)), timeout_(timeout) {
  auto addresses = addresses_of(host, port, ioc_, where_);
  stream_.expires_after(timeout_);
  check(*await([&](auto done) { stream_.async_connect(addresses, std::move(done)); }, nullptr));
  if (tls) {
    auto& s = tls_.emplace(stream_, *tls);
    s.set_verify_callback(net::ssl::host_name_verification(host));
    error_code not_an_address;
    net::ip::make_address(host, not_an_address);
    if (not_an_address && !SSL_set_tlsext_host_name(s.native_handle(), host.c_str())) // SNI is for names only
      throw etcd_error(kind::unreachable, "etcd " + where_ + ": cannot set the TLS server name");
    check(*await([&](auto done) { s.async_handshake(net::ssl::stream_base::client, std::move(done)); }, nullptr));
  }
  bhttp::request<bhttp::string_body> request{bhttp::verb::post, path, 11};
  request.set(bhttp::field::host, where_);
  request.set(bhttp::field::content_type, "application/json");
  if (!token.empty())
    request.set(bhttp::field::authorization, token);
  request.body() = body;
  request.prepare_payload();
  check(*await([&](auto done) { on_stream([&](auto& s) { bhttp::async_write(s, request, std::move(done)); }); },
               nullptr));
}

std::pair<unsigned, std::string> etcd_connection::answer(std::size_t limit) {
  bhttp::response_parser<bhttp::string_body> parser;
  parser.body_limit(limit);
  check(*await([&](auto done) { on_stream([&](auto& s) { bhttp::async_read(s, buffer_, parser, std::move(done)); }); },
               nullptr));
  return {parser.get().result_int(), std::move(parser.get().body())};
}

unsigned etcd_connection::stream_header() {
  auto& parser = stream_parser_.emplace();
  parser.body_limit(boost::none); // a watch's body has no end
  check(*await(
      [&](auto done) { on_stream([&](auto& s) { bhttp::async_read_header(s, buffer_, parser, std::move(done)); }); },
      nullptr));
  stream_.expires_never();
  return parser.get().result_int();
}

std::optional<std::size_t> etcd_connection::stream_piece(char* buf, std::size_t size, const std::atomic<bool>& stop) {
  auto& parser = *stream_parser_;
  if (parser.is_done())
    return std::nullopt;
  auto& body = parser.get().body();
  body.data = buf;
  body.size = size;
  body.more = true;
  auto ec = await(
      [&](auto done) { on_stream([&](auto& s) { bhttp::async_read_some(s, buffer_, parser, std::move(done)); }); },
      &stop);
  if (!ec)
    return std::nullopt;
  if (*ec != bhttp::error::need_buffer) // `buf` is full: not a failure
    check(*ec);
  return size - body.size;
}

template <class Start>
std::optional<error_code> etcd_connection::await(Start start, const std::atomic<bool>* stop) {
  std::optional<error_code> result;
  start([&result](error_code ec, auto&&...) { result = ec; });
  ioc_.restart();
  while (!result) {
    if (stop && stop->load()) {
      error_code ignored;
      stream_.socket().close(ignored); // the pending operation ends as aborted
      while (!result)
        ioc_.run_one();
      return std::nullopt;
    }
    if (stop)
      ioc_.run_one_for(timeout_);
    else
      ioc_.run_one();
  }
  return result;
}

template <class F>
void etcd_connection::on_stream(F f) {
  if (tls_)
    f(*tls_);
  else
    f(stream_);
}

void etcd_connection::check(error_code ec) const {
  if (!ec)
    return;
  if (ec == beast::error::timeout)
    throw etcd_error(kind::timeout, "etcd " + where_ + ": no answer within " + std::to_string(timeout_.count()) + " ms");
  // A TLS stream etcd closed without close_notify counts as cut short too.
  bool cut_short = ec == bhttp::error::end_of_stream || ec == bhttp::error::partial_message ||
                   ec == net::ssl::error::stream_truncated;
  bool http_error = ec.category() == bhttp::make_error_code(bhttp::error::end_of_stream).category();
  if (http_error && !cut_short)
    throw etcd_error(kind::rejected, "etcd " + where_ + ": not an answer etcd sends: " + ec.message());
  throw etcd_error(kind::unreachable, "etcd " + where_ + ": " + ec.message());
}

} // namespace svc::clients
