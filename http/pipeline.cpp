#include "http/pipeline.hpp"

#include "core/crypto.hpp"
#include "http/client_address.hpp"
#include "http/protocol_errors.hpp"
#include "http/respond.hpp"
#include "http/stages/stages.hpp"

namespace svc::http {
namespace {

void finish(const context_ptr& ctx) {
  if (ctx->legacy && !(ctx->error && ctx->error->code == schema::error_code::too_many_requests)) {
    if (ctx->error)
      reply_error(ctx, *ctx->error, ctx->legacy->headers);
    else
      reply_body(ctx, 308, "This path moved; follow the Location header.\n", "text/plain; charset=utf-8",
                 ctx->legacy->headers);
    return;
  }
  if (ctx->error)
    reply_error(ctx, *ctx->error);
  else
    ctx->matched().handler(ctx);
}

// Checked by the node that acts, also on a request another node forwarded:
// a cluster certificate proves membership, never admin authority.
bool check_admin_token(request_context& ctx) {
  if (ctx.matched().needs == schema::scope::none)
    return true;
  if (auto code = admin_token_error(ctx.req, ctx.svc.admin_token)) {
    ctx.error = schema::make_api_error(*code);
    return false;
  }
  return true;
}

} // namespace

api_pipeline::api_pipeline(services& svc) : svc_{svc}, routes_{api_routes()} {}

bool api_pipeline::streams_body(const http_request& head) const {
  auto m = routes_.match(head.method(), split_target(head.target()).first);
  return m.matched && m.matched->streams_body;
}

void api_pipeline::on_request(http_request req, std::shared_ptr<body_source> body, const peer_info& peer,
                              responder done) {
  auto ctx = std::make_shared<request_context>(svc_, listener_kind::api, std::move(req), peer, std::move(done));
  // Behind a trusted reverse proxy the client is the one its headers name
  // (a cluster peer forwards the client it resolved).
  if (!svc_.cfg.trusted_proxies.empty() && peer.forwarded_request_id.empty())
    ctx->peer.address = client_key_behind(svc_.cfg, peer.ip, ctx->req);
  ctx->body = std::move(body);
  assign_request_id(*ctx);
  // Stages stop at the first failure; the rate limit runs regardless, so every
  // answer (errors included) draws from a bucket and carries its headers.
  // A key in the query is refused even on unknown paths: the client must learn it leaked.
  refuse_query_key(*ctx) && check_legacy_path(*ctx) && match_route(*ctx, routes_) && check_version(*ctx)
    && authenticate(*ctx) && check_scope(*ctx);
  take_rate_token(ctx, finish);
}

void api_pipeline::on_protocol_error(protocol_error e, const std::string& detail, const peer_info& peer,
                                     responder done) {
  auto ctx = std::make_shared<request_context>(svc_, listener_kind::api, http_request{}, peer, std::move(done));
  assign_request_id(*ctx);
  ctx->req.keep_alive(false);
  ctx->error = protocol_api_error(e, detail, svc_.cfg);
  take_rate_token(ctx, [](const context_ptr& c) { reply_error(c, *c->error); });
}

admin_pipeline::admin_pipeline(services& svc) : svc_{svc}, routes_{admin_routes()} {}

void admin_pipeline::on_request(http_request req, std::shared_ptr<body_source>, const peer_info& peer,
                                responder done) {
  auto ctx = std::make_shared<request_context>(svc_, listener_kind::admin, std::move(req), peer, std::move(done));
  assign_request_id(*ctx);
  match_route(*ctx, routes_) && check_admin_token(*ctx);
  finish(ctx);
}

void admin_pipeline::on_protocol_error(protocol_error e, const std::string& detail, const peer_info& peer,
                                       responder done) {
  auto ctx = std::make_shared<request_context>(svc_, listener_kind::admin, http_request{}, peer, std::move(done));
  assign_request_id(*ctx);
  ctx->req.keep_alive(false);
  reply_error(ctx, protocol_api_error(e, detail, svc_.cfg));
}

engine_callback_pipeline::engine_callback_pipeline(services& svc) : svc_{svc}, routes_{engine_callback_routes()} {}

void engine_callback_pipeline::on_request(http_request req, std::shared_ptr<body_source>, const peer_info& peer,
                                          responder done) {
  auto ctx = std::make_shared<request_context>(svc_, listener_kind::engine, std::move(req), peer, std::move(done));
  assign_request_id(*ctx);
  match_route(*ctx, routes_);
  finish(ctx);
}

void engine_callback_pipeline::on_protocol_error(protocol_error e, const std::string& detail, const peer_info& peer,
                                                 responder done) {
  auto ctx = std::make_shared<request_context>(svc_, listener_kind::engine, http_request{}, peer, std::move(done));
  assign_request_id(*ctx);
  ctx->req.keep_alive(false);
  reply_error(ctx, protocol_api_error(e, detail, svc_.cfg));
}

} // namespace svc::http
