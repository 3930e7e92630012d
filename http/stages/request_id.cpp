#include "core/ids.hpp"
#include "http/stages/stages.hpp"

namespace svc::http {

void assign_request_id(request_context& ctx) {
  ctx.request_id = ctx.peer.forwarded_request_id.empty() ? core::make_id("req") : ctx.peer.forwarded_request_id;
  // Invalid ones are ignored, not refused: tracing is the client's aid, never a reason to fail its request.
  if (auto id = ctx.header("X-Request-Id"); id && schema::valid_client_request_id(*id) && *id != ctx.svc.admin_token)
    ctx.client_request_id = std::string{*id};
  if (auto tp = ctx.header("traceparent"))
    ctx.trace = schema::parse_traceparent(*tp);
  auto [path, query] = split_target(ctx.req.target());
  ctx.path = path;
  ctx.query = parse_query(query);
}

bool match_route(request_context& ctx, const router& routes) {
  auto path = ctx.path;
  ctx.match = routes.match(ctx.req.method(), path);
  if (ctx.match.matched)
    return true;
  std::string method{ctx.req.method_string()};
  std::string shown{path.substr(0, 200)};
  ctx.error = ctx.match.allow.empty()
                ? schema::make_api_error(schema::error_code::route_not_found, {{"method", method}, {"path", shown}})
                : schema::make_api_error(schema::error_code::method_not_allowed,
                                         {{"method", method}, {"path", shown}, {"allow", ctx.match.allow}});
  return false;
}

} // namespace svc::http
