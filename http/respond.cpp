#include "http/respond.hpp"

#include <boost/json.hpp>

#include "actors/messages.hpp"
#include "core/log.hpp"
#include "http/access.hpp"
#include "schema/api_versions.hpp"
#include "schema/utf8.hpp"

namespace svc::http {
namespace bhttp = beast::http;
namespace json = boost::json;

const std::string& request_context::param(std::string_view name) const {
  static const std::string none;
  for (auto& [k, v] : match.params)
    if (k == name)
      return v;
  return none;
}

std::optional<std::string_view> request_context::header(std::string_view name) const {
  auto it = req.find(beast::string_view{name.data(), name.size()});
  if (it == req.end())
    return std::nullopt;
  return std::string_view{it->value().data(), it->value().size()};
}

namespace {

// The response with its status line and fields (Content-Length: `length`),
// counted and logged; the caller adds the body unless the method is HEAD.
outgoing_response start_response(const context_ptr& ctx, unsigned status, std::string_view content_type,
                                 const header_list& extra, uint64_t length) {
  outgoing_response res;
  res.version = ctx->req.version() == 10 ? 10 : 11;
  res.key_authenticated = ctx->key != nullptr;
  auto& h = res.head;
  h.reserve(320);
  auto reason = bhttp::obsolete_reason(static_cast<bhttp::status>(status));
  h.append(res.version == 10 ? "HTTP/1.0 " : "HTTP/1.1 ").append(std::to_string(status)).push_back(' ');
  h.append(reason.data(), reason.size()).append("\r\n");
  auto field = [&h](std::string_view name, std::string_view value) {
    h.append(name).append(": ").append(value).append("\r\n");
  };
  field("Server", "svc");
  field("Content-Type", content_type);
  field("Svc-Request-Id", ctx->request_id);
  if (!ctx->client_request_id.empty())
    field("X-Request-Id", ctx->client_request_id);
  if (ctx->kind == listener_kind::api) {
    field("Svc-Version", ctx->version.empty() ? schema::newest_api_version() : ctx->version);
    if (ctx->rate) {
      field("X-RateLimit-Limit", std::to_string(ctx->rate->limit));
      field("X-RateLimit-Remaining", std::to_string(ctx->rate->remaining));
      field("X-RateLimit-Reset", std::to_string(ctx->rate->reset_epoch));
    }
  }
  for (auto& [name, value] : extra)
    field(name, value);
  field("Content-Length", std::to_string(length));
  res.keep_alive = ctx->req.keep_alive() && !ctx->svc.draining.load(std::memory_order_relaxed);
  record_answer(*ctx, status, length);
  if (status >= 500 && !ctx->reports_readiness) {
    // The route template, not the path: the list shows what failed, never whose ids.
    ctx->svc.recent_5xx.add({ctx->svc.clock->now(), ctx->request_id, std::string{ctx->req.method_string()},
                             ctx->match.matched ? std::string{ctx->match.matched->path} : std::string{"(no route)"},
                             status, std::string{ctx->error_code}});
  }
  return res;
}

} // namespace

void reply_body(const context_ptr& ctx, unsigned status, std::string body, std::string_view content_type,
                header_list extra) {
  if (ctx->replied)
    return;
  ctx->replied = true;
  auto res = start_response(ctx, status, content_type, extra, body.size());
  if (ctx->req.method() != bhttp::verb::head)
    res.body = std::move(body);
  ctx->done(std::move(res));
}

void reply_stream(const context_ptr& ctx, unsigned status, std::shared_ptr<body_stream> body,
                  std::string_view content_type, header_list extra) {
  if (ctx->replied)
    return;
  ctx->replied = true;
  auto res = start_response(ctx, status, content_type, extra, body->remaining());
  if (ctx->req.method() != bhttp::verb::head)
    res.stream = std::move(body);
  ctx->done(std::move(res));
}

void reply_json(const context_ptr& ctx, unsigned status, const json::value& body, header_list extra) {
  reply_body(ctx, status, json::serialize(body), "application/json", std::move(extra));
}

void reply_error(const context_ptr& ctx, const schema::api_error& err, header_list extra) {
  auto& row = schema::info(err.code);
  // Messages and params quote client bytes (ids from the path, query names,
  // header values); the JSON must stay valid whatever those bytes were.
  json::object e{{"type", schema::to_string(row.type)},
                 {"code", row.name},
                 {"message", schema::utf8_sanitized(err.message)},
                 {"request_id", ctx->request_id},
                 {"doc_url", ctx->svc.base_url + "/docs/errors#" + std::string{row.name}}};
  if (!err.param.empty())
    e["param"] = schema::utf8_sanitized(err.param);
  if (err.retry_after > 0)
    extra.emplace_back("Retry-After", std::to_string(err.retry_after));
  else if (err.code == schema::error_code::too_many_requests && ctx->rate)
    extra.emplace_back("Retry-After", std::to_string(ctx->rate->retry_after));
  if (err.code == schema::error_code::method_not_allowed)
    extra.emplace_back("Allow", ctx->match.allow);
  ctx->error_code = row.name;
  reply_json(ctx, static_cast<unsigned>(row.status), json::object{{"error", std::move(e)}}, std::move(extra));
}

void reply_storage_failure(const context_ptr& ctx, const std::string& why) {
  core::log_error("http", ctx->request_id + ": store read failed: " + why);
  reply_error(ctx, schema::make_api_error(schema::error_code::storage_unavailable));
}

void reply_actor_error(const context_ptr& ctx, const caf::error& err) {
  auto api = actors::to_api_error(err);
  if (api.code == schema::error_code::internal_error) {
    core::log_error("http", ctx->request_id + ": " + caf::to_string(err));
    api = schema::make_api_error(schema::error_code::internal_error, {{"request_id", ctx->request_id}});
  }
  reply_error(ctx, api);
}

} // namespace svc::http
