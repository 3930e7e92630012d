#include "support/http_client.hpp"

#include "support/contract_guard.hpp"

#include <optional>
#include <sstream>
#include <stdexcept>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/json/parse.hpp>

namespace svc::e2e {
namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using boost::system::error_code;

namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

constexpr std::uint64_t max_body = 64ull << 20;

response convert(http::response<http::string_body>&& res) {
  response out;
  out.status = static_cast<int>(res.result_int());
  for (auto& f : res)
    out.headers.emplace_back(std::string{f.name_string()}, std::string{f.value()});
  out.body = std::move(res.body());
  return out;
}

http::request<http::string_body> make_request(std::string_view method, std::string_view target,
                                              const header_map& headers, std::string body,
                                              const endpoint_address& addr) {
  http::request<http::string_body> req;
  auto verb = http::string_to_verb(method);
  if (verb == http::verb::unknown)
    req.method_string(method);
  else
    req.method(verb);
  req.target(target);
  req.version(11);
  req.set(http::field::host, addr.host + ":" + std::to_string(addr.port));
  req.set(http::field::user_agent, "svc-e2e");
  for (auto& [name, value] : headers)
    req.set(name, value);
  if (!body.empty() && req.find(http::field::content_type) == req.end())
    req.set(http::field::content_type, "application/json");
  req.body() = std::move(body);
  req.prepare_payload();
  return req;
}

} // namespace

endpoint_address parse_http_url(const std::string& url) {
  const std::string scheme = "http://";
  if (url.compare(0, scheme.size(), scheme) != 0)
    throw std::invalid_argument("not an http:// URL: " + url);
  auto rest = url.substr(scheme.size());
  auto slash = rest.find('/');
  if (slash != std::string::npos)
    rest.resize(slash);
  auto colon = rest.rfind(':');
  if (colon == std::string::npos)
    throw std::invalid_argument("URL without port: " + url);
  endpoint_address out;
  out.host = rest.substr(0, colon);
  out.port = static_cast<unsigned short>(std::stoi(rest.substr(colon + 1)));
  return out;
}

std::optional<std::string> response::header(std::string_view name) const {
  for (auto& [n, v] : headers)
    if (iequals(n, name))
      return v;
  return std::nullopt;
}

std::string response::header_or_empty(std::string_view name) const { return header(name).value_or(""); }

boost::json::value response::json() const {
  error_code ec;
  auto v = boost::json::parse(body, ec);
  if (ec)
    return nullptr;
  return v;
}

std::string response::summary() const {
  return "HTTP " + std::to_string(status) + " " + body.substr(0, 400);
}

struct http_client::impl {
  std::string base_url;
  bool svcd = true; ///< answers are checked against svcd's contract
  endpoint_address addr;
  net::io_context ioc;
  std::optional<beast::tcp_stream> stream;
  beast::flat_buffer buffer;
  std::size_t opened = 0;
  std::chrono::milliseconds timeout{30000};

  void run() {
    ioc.restart();
    ioc.run();
  }

  void connect() {
    close();
    tcp::resolver resolver{ioc};
    auto results = resolver.resolve(addr.host, std::to_string(addr.port));
    stream.emplace(ioc);
    error_code ec;
    stream->expires_after(timeout);
    stream->async_connect(results, [&](error_code e, const tcp::endpoint&) { ec = e; });
    run();
    if (ec)
      throw std::runtime_error("connect to " + base_url + " failed: " + ec.message());
    stream->socket().set_option(tcp::no_delay{true});
    ++opened;
  }

  void close() {
    if (stream) {
      error_code ignored;
      stream->socket().shutdown(tcp::socket::shutdown_both, ignored);
      stream->socket().close(ignored);
      stream.reset();
    }
    buffer.clear();
  }

  struct exchange_result {
    error_code write_ec, read_ec;
    bool write_done = false;
    bool got_some = false;
    std::optional<response> res;
    bool keep_alive = false;
  };

  // Writes and reads concurrently, so a response sent before the whole body
  // was accepted (413) is still seen.
  exchange_result exchange(http::request<http::string_body>& req) {
    exchange_result r;
    http::response_parser<http::string_body> parser;
    parser.body_limit(max_body);
    // A response to HEAD carries the GET's Content-Length but no body.
    parser.skip(req.method() == http::verb::head);
    stream->expires_after(timeout);
    http::async_write(*stream, req, [&](error_code e, std::size_t) {
      r.write_ec = e;
      r.write_done = true;
    });
    http::async_read(*stream, buffer, parser, [&](error_code e, std::size_t) {
      r.read_ec = e;
      if (!r.write_done)
        stream->socket().cancel();
    });
    run();
    r.got_some = parser.got_some();
    if (!r.read_ec) {
      r.keep_alive = parser.get().keep_alive();
      r.res = convert(parser.release());
    }
    return r;
  }
};

http_client::http_client(const std::string& base_url) : impl_(std::make_unique<impl>()) {
  impl_->base_url = base_url;
  impl_->addr = parse_http_url(base_url);
}

http_client::http_client(const std::string& base_url, foreign_server_t) : http_client(base_url) {
  impl_->svcd = false;
}

http_client::~http_client() = default;
http_client::http_client(http_client&&) noexcept = default;
http_client& http_client::operator=(http_client&&) noexcept = default;

response http_client::request(std::string_view method, std::string_view target, const header_map& headers,
                              std::string body) {
  auto req = make_request(method, target, headers, std::move(body), impl_->addr);
  bool reused = impl_->stream.has_value();
  if (!reused)
    impl_->connect();
  auto r = impl_->exchange(req);
  bool stale = reused && !r.got_some
               && (r.read_ec == http::error::end_of_stream || r.read_ec == net::error::connection_reset
                   || r.read_ec == net::error::eof || r.read_ec == net::error::broken_pipe);
  if (stale) {
    impl_->connect();
    r = impl_->exchange(req);
  }
  if (!r.res) {
    impl_->close();
    throw std::runtime_error(std::string{method} + " " + std::string{target} + " failed: " + r.read_ec.message()
                             + (r.write_ec ? " (write: " + r.write_ec.message() + ")" : ""));
  }
  if (!r.keep_alive || !r.write_done || r.write_ec)
    impl_->close();
  if (impl_->svcd)
    check_against_contract(method, target, *r.res);
  return std::move(*r.res);
}

response http_client::get(std::string_view target, const header_map& headers) {
  return request("GET", target, headers);
}

std::vector<response> http_client::pipeline(const std::vector<request_spec>& requests) {
  impl_->connect();
  std::string wire;
  for (auto& spec : requests) {
    auto req = make_request(spec.method, spec.target, spec.headers, spec.body, impl_->addr);
    std::ostringstream os;
    os << req;
    wire += os.str();
  }
  std::vector<response> out;
  std::optional<http::response_parser<http::string_body>> parser;
  std::function<void()> read_next = [&] {
    parser.emplace();
    parser->body_limit(max_body);
    http::async_read(*impl_->stream, impl_->buffer, *parser, [&](error_code e, std::size_t) {
      if (e) {
        impl_->stream->socket().cancel();
        return;
      }
      out.push_back(convert(parser->release()));
      if (out.size() < requests.size())
        read_next();
    });
  };
  impl_->stream->expires_after(impl_->timeout);
  net::async_write(*impl_->stream, net::buffer(wire), [](error_code, std::size_t) {});
  read_next();
  impl_->run();
  impl_->close();
  // HTTP/1.1 answers pipelined requests in order.
  for (std::size_t i = 0; i < out.size() && impl_->svcd; ++i)
    check_against_contract(requests[i].method, requests[i].target, out[i]);
  return out;
}

void http_client::close() { impl_->close(); }

std::size_t http_client::connections_opened() const { return impl_->opened; }

void http_client::set_timeout(std::chrono::milliseconds timeout) { impl_->timeout = timeout; }

const std::string& http_client::base_url() const { return impl_->base_url; }

std::optional<response> parse_response(std::string_view bytes) {
  http::response_parser<http::string_body> parser;
  parser.body_limit(max_body);
  parser.eager(true);
  error_code ec;
  parser.put(net::buffer(bytes.data(), bytes.size()), ec);
  if (!ec && !parser.is_done())
    parser.put_eof(ec); // a body that ends with the connection
  if (ec || !parser.is_done())
    return std::nullopt;
  return convert(parser.release());
}

header_map with_key(const std::string& key, header_map more) {
  more["X-Api-Key"] = key;
  return more;
}

} // namespace svc::e2e
