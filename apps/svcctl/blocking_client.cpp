#include "apps/svcctl/blocking_client.hpp"

#include <chrono>
#include <stdexcept>

#include <boost/asio/io_context.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "core/host_port.hpp"

namespace svc::ctl {
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = boost::asio::ip::tcp;

client_response blocking_request(const std::string& base_url, const std::string& method, const std::string& target,
                                 const std::string& bearer_token, const std::string& json_body) {
  client_response out;
  try {
    const std::string scheme = "http://";
    if (base_url.compare(0, scheme.size(), scheme) != 0)
      throw std::runtime_error("only http:// admin URLs are supported: " + base_url);
    auto host_port = base_url.substr(scheme.size());
    host_port = host_port.substr(0, host_port.find('/'));
    boost::asio::io_context ioc;
    beast::tcp_stream stream{ioc};
    stream.expires_after(std::chrono::seconds{30});
    stream.connect(core::parse_endpoint(host_port));
    bhttp::request<bhttp::string_body> req{bhttp::string_to_verb(method), target, 11};
    req.set(bhttp::field::host, host_port);
    req.set(bhttp::field::user_agent, "svcctl");
    if (!bearer_token.empty())
      req.set(bhttp::field::authorization, "Bearer " + bearer_token);
    if (!json_body.empty()) {
      req.set(bhttp::field::content_type, "application/json");
      req.body() = json_body;
    }
    req.prepare_payload();
    bhttp::write(stream, req);
    beast::flat_buffer buffer;
    bhttp::response<bhttp::string_body> res;
    bhttp::read(stream, buffer, res);
    out.status = static_cast<int>(res.result_int());
    out.body = std::move(res.body());
    beast::error_code ec;
    stream.socket().shutdown(tcp::socket::shutdown_both, ec);
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

} // namespace svc::ctl
