// POST/GET /v1/webhook_endpoints, GET/PATCH/DELETE /v1/webhook_endpoints/{id}
// and POST /v1/webhook_endpoints/{id}/rotate_secret. Reads come from the
// tables; every change goes through the endpoint directory.
#include <boost/json.hpp>

#include "core/ids.hpp"
#include "core/shard.hpp"
#include "http/actor_call.hpp"
#include "schema/address_policy.hpp"
#include "http/handlers/handlers.hpp"
#include "http/idempotency.hpp"
#include "http/json_body.hpp"
#include "http/list_params.hpp"
#include "http/owned_read.hpp"
#include "schema/webhook_request.hpp"
#include "schema/webhook_signature.hpp"
#include "schema/webhook_views.hpp"

namespace svc::http {
namespace {

constexpr std::string_view endpoints_route = "webhook_endpoints";

// The SSRF rule at create and PATCH: a URL that is no `https://` URL, or
// names a private address or `localhost`, is refused unless the operator
// allows private receivers. Names are judged again, resolved, at delivery.
bool url_acceptable(const context_ptr& ctx, const std::string& url) {
  std::string why;
  auto parsed = schema::parse_webhook_url(url, why);
  if (parsed)
    if (auto refused = schema::refused_at_create(*parsed, ctx->svc.cfg.webhook_allow_private))
      why = *refused;
  if (parsed && why.empty())
    return true;
  reply_error(ctx, schema::make_api_error(schema::error_code::invalid_parameter, {{"detail", why}}, "url"));
  return false;
}

schema::webhook_endpoint_record new_endpoint(const context_ptr& ctx, schema::webhook_endpoint_request& r) {
  schema::webhook_endpoint_record e;
  e.id = core::make_id("we", core::shard_of_team(ctx->team->id));
  e.team_id = ctx->team->id;
  e.url = std::move(r.url);
  e.events = std::move(r.events);
  e.secret = schema::make_webhook_secret();
  e.is_active = true;
  e.metadata = std::move(r.metadata);
  e.created_at = e.updated_at = ctx->svc.clock->now();
  return e;
}

void reply_endpoint(const context_ptr& ctx, const schema::webhook_endpoint_record& e, bool show_secret = false) {
  reply_json(ctx, 200, schema::webhook_endpoint_view(e, show_secret));
}

void reply_endpoint_not_found(const context_ptr& ctx, const std::string& id) {
  reply_error(ctx, schema::make_api_error(schema::error_code::resource_not_found,
                                          {{"kind", "webhook endpoint"}, {"id", id.substr(0, 64)}}, "id"));
}

} // namespace

std::optional<std::string> endpoint_path_id(const context_ptr& ctx) {
  auto& id = ctx->param("id");
  if (core::has_id_shape(id, "we"))
    return id;
  reply_endpoint_not_found(ctx, id);
  return std::nullopt;
}

std::optional<schema::webhook_endpoint_record> find_team_endpoint(const context_ptr& ctx) {
  auto& id = ctx->param("id");
  auto e = read_owned(ctx, ctx->svc.tables().webhook_endpoints, id, "we");
  if (e.failed())
    reply_storage_failure(ctx, e.why());
  else if (e.absent())
    reply_endpoint_not_found(ctx, id);
  return std::move(e).found();
}

void create_webhook_endpoint(const context_ptr& ctx) {
  auto valid = read_valid_body(ctx, schema::validate_webhook_endpoint_create);
  if (!valid || !url_acceptable(ctx, valid->request.url))
    return;
  std::optional<idempotency_claim> claim;
  if (!claim_create(ctx, endpoints_route, valid->json, claim))
    return;

  actors::endpoint_creation creation;
  creation.endpoint = new_endpoint(ctx, valid->request);
  auto location = ctx->svc.base_url + "/v1/webhook_endpoints/" + creation.endpoint.id;
  // The one answer that shows the secret; a replay shows it again, as the
  // stored 201 is the create's answer.
  auto answer = boost::json::serialize(schema::webhook_endpoint_view(creation.endpoint, true));
  creation.idempotency = replay_record(ctx, endpoints_route, claim, answer, location);
  ask<actors::endpoint_created>(ctx, ctx->svc.actors().webhooks,
                                on_created<actors::endpoint_created>(ctx, claim, std::move(answer), std::move(location)),
                                actors::create_atom::value, std::move(creation));
}

void list_webhook_endpoints(const context_ptr& ctx) {
  auto params = read_list_params(ctx, "we");
  if (!params)
    return;
  auto& tables = ctx->svc.tables();
  // An endpoint deleted since the index was read is absent, so skipped.
  reply_team_list(ctx, tables.endpoints_by_team, "we", *params, [&](std::string_view id) {
    return tables.webhook_endpoints.get(id).map(
      [](schema::webhook_endpoint_record&& e) { return schema::webhook_endpoint_view(e); });
  });
}

void get_webhook_endpoint(const context_ptr& ctx) {
  if (auto e = find_team_endpoint(ctx))
    reply_endpoint(ctx, *e);
}

void patch_webhook_endpoint(const context_ptr& ctx) {
  auto id = endpoint_path_id(ctx);
  if (!id)
    return;
  auto update = read_valid_body(ctx, schema::validate_webhook_endpoint_update);
  if (!update)
    return;
  auto& u = update->request;
  if (u.url && !url_acceptable(ctx, *u.url))
    return;
  actors::endpoint_patch patch{std::move(u.url), std::move(u.events), std::move(u.metadata), u.is_active};
  ask<schema::webhook_endpoint_record>(
    ctx, ctx->svc.actors().webhooks, [ctx](schema::webhook_endpoint_record& e) { reply_endpoint(ctx, e); },
    actors::patch_atom::value, ctx->team->id, *id, std::move(patch));
}

void delete_webhook_endpoint(const context_ptr& ctx) {
  auto id = endpoint_path_id(ctx);
  if (!id || !read_json_object(ctx, {}, empty_body::allowed))
    return;
  ask<bool>(
    ctx, ctx->svc.actors().webhooks, [ctx, id = *id](bool&) { reply_json(ctx, 200, schema::deleted_endpoint_view(id)); },
    actors::delete_atom::value, ctx->team->id, *id);
}

void rotate_webhook_secret(const context_ptr& ctx) {
  auto id = endpoint_path_id(ctx);
  if (!id || !read_json_object(ctx, {}, empty_body::allowed))
    return;
  ask<schema::webhook_endpoint_record>(
    ctx, ctx->svc.actors().webhooks, [ctx](schema::webhook_endpoint_record& e) { reply_endpoint(ctx, e, true); },
    actors::rotate_atom::value, ctx->team->id, *id);
}

} // namespace svc::http
