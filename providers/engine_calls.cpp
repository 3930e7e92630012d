#include "providers/engine_calls.hpp"

#include <algorithm>
#include <optional>

namespace svc::providers {

engine_calls::engine_calls(const remote_url& url, header_list headers, const schema::correlation& correlation,
                           std::chrono::milliseconds connect_timeout, std::chrono::milliseconds call_timeout,
                           clock::time_point deadline)
    : url_(url), headers_(schema::outbound_headers(correlation)), connect_timeout_(connect_timeout),
      call_timeout_(call_timeout), deadline_(deadline), busy_(boost::asio::make_work_guard(ioc_)),
      pause_timer_(ioc_) {
  headers_.insert(headers_.end(), headers.begin(), headers.end());
}

bool engine_calls::resolve(std::string& why) {
  endpoints_ = resolve_endpoints(url_.host, url_.port, why);
  return !endpoints_.empty();
}

exchange_answer engine_calls::call(boost::beast::http::verb method, const std::string& target, std::string body,
                                   std::size_t limit, std::string content_type, const header_list& extra) {
  exchange_request r;
  r.method = method;
  r.target = url_.target(target);
  r.host = url_.host_header();
  r.authorization = url_.authorization;
  r.headers = headers_;
  r.headers.insert(r.headers.end(), extra.begin(), extra.end());
  r.body = std::move(body);
  r.content_type = std::move(content_type);
  r.body_limit = limit;
  return run(std::move(r), endpoints_);
}

exchange_answer engine_calls::fetch(const remote_url& where, const std::string& target, std::size_t limit) {
  std::string why;
  auto to = where.host == url_.host && where.port == url_.port ? endpoints_ : resolve_endpoints(where.host, where.port, why);
  if (to.empty())
    return {exchange_fault::connect_failed, 0, {}, why};
  exchange_request r;
  r.target = target;
  r.host = where.host_header();
  r.authorization = where.authorization;
  r.headers = headers_;
  r.body_limit = limit;
  return run(std::move(r), to);
}

exchange_answer engine_calls::run(exchange_request r, const std::vector<boost::asio::ip::tcp::endpoint>& to) {
  auto now = clock::now();
  r.connect_deadline = std::min(deadline_, now + connect_timeout_);
  r.deadline = std::min(deadline_, now + connect_timeout_ + call_timeout_);
  std::optional<exchange_answer> got;
  auto exchange = http_exchange::start(ioc_, to, std::move(r), [&got](exchange_answer a) { got = std::move(a); });
  run_until([&] { return got.has_value(); });
  return std::move(*got);
}

std::string probe_get(const remote_url& url, const header_list& headers, const std::string& target,
                      std::chrono::milliseconds timeout, std::string* body) {
  engine_calls calls{url, headers, {}, timeout, timeout, engine_calls::clock::now() + timeout};
  std::string why;
  if (!calls.resolve(why))
    return "cannot resolve " + url.host + ": " + why;
  auto a = calls.call(boost::beast::http::verb::get, target);
  if (a.fault == exchange_fault::timed_out)
    return "GET " + target + " did not answer within " + std::to_string(timeout.count()) + " ms";
  if (a.fault != exchange_fault::none)
    return "GET " + target + ": " + (a.detail.empty() ? "no answer" : a.detail);
  if (a.status != 200)
    return "GET " + target + ": HTTP " + std::to_string(a.status);
  if (body)
    *body = std::move(a.body);
  return {};
}

} // namespace svc::providers
