#include "http/access.hpp"

#include <array>
#include <chrono>
#include <cstdio>
#include <tuple>
#include <unordered_map>

#include <boost/asio/post.hpp>

#include "core/log.hpp"
#include "core/metric_catalogue.hpp"

namespace svc::http {
namespace {

std::string listener_name(listener_kind k) {
  switch (k) {
  case listener_kind::api: return "api";
  case listener_kind::admin: return "admin";
  case listener_kind::engine: return "engine";
  }
  return "api";
}

// A route template, never the path: a label per path would grow without bound.
std::string route_label(const request_context& ctx) {
  return ctx.match.matched ? std::string{ctx.matched().path} : std::string{"unmatched"};
}

// Methods Beast does not know are one label: their names are the client's to invent.
std::string method_label(beast::http::verb m) {
  return m == beast::http::verb::unknown ? std::string{"OTHER"} : std::string{beast::http::to_string(m)};
}

std::string milliseconds_text(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", seconds * 1000);
  return buf;
}

// The latency histogram of a listener, route, method and status class. The
// registry finds a child under a lock, by four label strings; each thread
// keeps what it found (children live as long as the process), so a request
// pays that once per label set, not every time.
core::metrics::histogram& latency_of(const request_context& ctx, unsigned status) {
  using key = std::tuple<listener_kind, const route*, beast::http::verb, unsigned>;
  struct key_hash {
    std::size_t operator()(const key& k) const noexcept {
      auto [listener, r, method, cls] = k;
      return std::hash<const route*>{}(r) ^ (static_cast<std::size_t>(method) << 4) ^ (cls << 12)
             ^ static_cast<std::size_t>(listener);
    }
  };
  thread_local std::unordered_map<key, core::metrics::histogram*, key_hash> found;
  auto method = ctx.req.method();
  key k{ctx.kind, ctx.match.matched, method, status / 100};
  auto& child = found[k];
  if (!child)
    child = &core::metrics::svc().http_request_seconds.with(
      {listener_name(ctx.kind), route_label(ctx), method_label(method), core::metrics::status_class(status)});
  return *child;
}

// The body bytes counter of a listener, found once.
core::metrics::counter& bytes_of(listener_kind k) {
  static std::array<core::metrics::counter*, 3> counters{
    &core::metrics::svc().http_response_bytes.with({listener_name(listener_kind::api)}),
    &core::metrics::svc().http_response_bytes.with({listener_name(listener_kind::admin)}),
    &core::metrics::svc().http_response_bytes.with({listener_name(listener_kind::engine)})};
  return *counters[static_cast<int>(k)];
}

} // namespace

void record_answer(const request_context& ctx, unsigned status, uint64_t bytes) {
  auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - ctx.received).count();
  latency_of(ctx, status).observe(seconds);
  bytes_of(ctx.kind).inc(static_cast<double>(bytes));
  if (status == 429) {
    static auto& limited = core::metrics::svc().rate_limited.get();
    limited.inc();
  }
  auto level = status >= 500 ? core::log_level::warn : core::log_level::info;
  if (!core::log_enabled(level))
    return;
  auto listener = listener_name(ctx.kind);
  auto route = route_label(ctx);
  auto method = method_label(ctx.req.method());
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
  // Buffered, and written by a handler queued now: behind the handlers
  // already queued (whose lines join the same write), ahead of the one that
  // sends this answer, so with one asio thread the line is out before the answer.
  if (core::log_buffered(level, "access", method + " " + route + " " + std::to_string(status), fields))
    net::post(ctx.svc.io, [] { core::flush_log_buffer(); });
}

} // namespace svc::http
