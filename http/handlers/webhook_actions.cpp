// POST /v1/webhook_endpoints/{id}/test and /replay (through the webhook
// directory), and GET /v1/webhook_endpoints/{id}/deliveries (from the tables).
#include <boost/json.hpp>

#include "core/ids.hpp"
#include "http/actor_call.hpp"
#include "http/handlers/handlers.hpp"
#include "http/json_body.hpp"
#include "http/list_params.hpp"
#include "persistence/webhook_rows.hpp"
#include "schema/views.hpp"
#include "schema/webhook_request.hpp"
#include "schema/webhook_views.hpp"

namespace svc::http {

void test_webhook_endpoint(const context_ptr& ctx) {
  auto& id = ctx->param("id");
  if (!core::has_id_shape(id, "we"))
    return reply_endpoint_not_found(ctx, id);
  auto body = parse_json_object(ctx, empty_body::allowed);
  if (!body)
    return;
  auto type = schema::validate_test_fire_request(*body);
  if (!type)
    return reply_error(ctx, type.error());
  ask<actors::test_fire>(
    ctx, ctx->svc.actors().webhooks,
    [ctx](actors::test_fire& t) {
      reply_json(ctx, 202, schema::test_fire_view(t.endpoint_id, t.event_id, t.enqueued));
    },
    actors::test_atom::value, ctx->team->id, id, type.value(), ctx->version,
    ctx->correlation());
}

void replay_webhook_endpoint(const context_ptr& ctx) {
  auto& id = ctx->param("id");
  if (!core::has_id_shape(id, "we"))
    return reply_endpoint_not_found(ctx, id);
  auto body = parse_json_object(ctx);
  if (!body)
    return;
  auto since = schema::validate_replay_request(*body, ctx->svc.clock->now());
  if (!since)
    return reply_error(ctx, since.error());
  ask<int64_t>(
    ctx, ctx->svc.actors().webhooks, [ctx, id](int64_t& n) { reply_json(ctx, 202, schema::replay_view(id, n)); },
    actors::replay_atom::value, ctx->team->id, id, since.value());
}

void list_webhook_deliveries(const context_ptr& ctx) {
  auto endpoint = find_team_endpoint(ctx);
  if (!endpoint)
    return;
  auto params = read_list_params(ctx, "dlv");
  if (!params)
    return;
  // Rows are keyed `we_id/dlv_id` with time-ordered ids: a reverse scan is newest first.
  auto prefix = persistence::owned_key(endpoint->id, "");
  persistence::scan_range range{prefix, params->starting_after.empty() ? "" : prefix + params->starting_after, true};
  bool more = false;
  auto rows = ctx->svc.tables().deliveries.page(range, params->limit, more);
  if (rows.failed())
    return reply_storage_failure(ctx, rows.why());
  boost::json::array data;
  for (auto& d : *rows)
    data.push_back(schema::delivery_view(d));
  reply_json(ctx, 200, schema::list_view(std::move(data), more));
}

} // namespace svc::http
