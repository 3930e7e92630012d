#include "http/access.hpp"

#include <chrono>
#include <cstdio>

#include "core/log.hpp"
#include "core/metric_catalogue.hpp"

namespace svc::http {
namespace {

std::string listener_name(listener_kind k) { return k == listener_kind::api ? "api" : "admin"; }

// A route template, never the path: a label per path would grow without bound.
std::string route_label(const request_context& ctx) {
  return ctx.match.matched ? std::string{ctx.matched().path} : std::string{"unmatched"};
}

// Methods Beast does not know are one label: their names are the client's to invent.
std::string method_label(const request_context& ctx) {
  auto m = ctx.req.method();
  return m == beast::http::verb::unknown ? std::string{"OTHER"} : std::string{beast::http::to_string(m)};
}

std::string milliseconds_text(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", seconds * 1000);
  return buf;
}

} // namespace

void record_answer(const request_context& ctx, unsigned status, uint64_t bytes) {
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - ctx.received).count();
  auto listener = listener_name(ctx.kind);
  auto route = route_label(ctx);
  auto method = method_label(ctx);
  auto& m = core::metrics::svc();
  m.http_request_seconds.with({listener, route, method, core::metrics::status_class(status)}).observe(seconds);
  m.http_response_bytes.with({listener}).inc(static_cast<double>(bytes));
  if (status == 429)
    m.rate_limited.get().inc();
  auto level = status >= 500 ? core::log_level::warn : core::log_level::info;
  if (!core::log_enabled(level))
    return;
  core::log_fields fields{{"request_id", ctx.request_id},
                          {"listener", listener},
                          {"method", method},
                          {"route", route},
                          {"status", std::to_string(status)},
                          {"duration_ms", milliseconds_text(seconds)},
                          {"bytes", std::to_string(bytes)},
                          {"team", ctx.team ? ctx.team->id : std::string{}},
                          {"key", ctx.key ? ctx.key->id : std::string{}},
                          {"peer", ctx.peer.address}};
  if (!ctx.client_request_id.empty())
    fields.emplace_back("client_request_id", ctx.client_request_id);
  if (ctx.trace)
    fields.emplace_back("trace_id", ctx.trace->trace_id);
  core::log(level, "access", method + " " + route + " " + std::to_string(status), fields);
}

} // namespace svc::http
