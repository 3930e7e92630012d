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
  auto id = endpoint_path_id(ctx);
  if (!id)
    return;
  auto type = read_valid_body(ctx, schema::validate_test_fire_request, empty_body::allowed);
  if (!type)
    return;
  ask<actors::test_fire>(
    ctx, ctx->svc.actors().webhooks,
    [ctx](actors::test_fire& t) {
      reply_json(ctx, 202, schema::test_fire_view(t.endpoint_id, t.event_id, t.enqueued));
    },
    actors::test_fire_atom::value, ctx->team->id, *id, type->request, ctx->version, ctx->correlation());
}

void replay_webhook_endpoint(const context_ptr& ctx) {
  auto id = endpoint_path_id(ctx);
  if (!id)
    return;
  auto since = read_valid_body(ctx, [&ctx](const boost::json::object& body) {
    return schema::validate_replay_request(body, ctx->svc.clock->now());
  });
  if (!since)
    return;
  ask<int64_t>(
    ctx, ctx->svc.actors().webhooks, [ctx, id = *id](int64_t& n) { reply_json(ctx, 202, schema::replay_view(id, n)); },
    actors::replay_atom::value, ctx->team->id, *id, since->request);
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
  reply_record_page(ctx, ctx->svc.tables().deliveries, range, params->limit, schema::delivery_view);
}

} // namespace svc::http
