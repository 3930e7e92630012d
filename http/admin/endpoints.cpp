// svcctl endpoint disable / enable: any team's webhook endpoint, switched by
// its team's endpoint directory, which persists the change before answering.
#include "http/actor_call.hpp"
#include "http/admin/admin_handlers.hpp"
#include "http/admin/path_record.hpp"
#include "http/json_body.hpp"
#include "http/respond.hpp"
#include "schema/webhook_views.hpp"

namespace svc::http {
namespace {

void set_endpoint_active(const context_ptr& ctx, bool active) {
  if (!read_json_object(ctx, {}, empty_body::allowed))
    return;
  auto endpoint = path_record(ctx, ctx->svc.tables().webhook_endpoints, {"we"}, "webhook_endpoint");
  if (!endpoint)
    return;
  actors::endpoint_patch patch;
  patch.is_active = active;
  ask<schema::webhook_endpoint_record>(
    ctx, ctx->svc.actors().webhooks,
    [ctx](schema::webhook_endpoint_record& e) { reply_json(ctx, 200, schema::webhook_endpoint_view(e)); },
    actors::patch_atom::value, endpoint->team_id, endpoint->id, std::move(patch));
}

} // namespace

void disable_endpoint(const context_ptr& ctx) { set_endpoint_active(ctx, false); }
void enable_endpoint(const context_ptr& ctx) { set_endpoint_active(ctx, true); }

} // namespace svc::http
