#include <boost/json.hpp>

#include "core/ids.hpp"
#include "http/actor_call.hpp"
#include "http/handlers/handlers.hpp"
#include "http/json_body.hpp"
#include "http/list_params.hpp"
#include "http/team_key_list.hpp"
#include "schema/views.hpp"

namespace svc::http {

namespace {

// A key inside its rotation grace keeps its other powers until then, but not
// over keys: otherwise whoever leaked it could rotate the new key or list them.
bool refuse_rotating_key(const context_ptr& ctx) {
  if (!ctx->key->deactivate_at)
    return false;
  reply_error(ctx, schema::make_api_error(schema::error_code::key_rotating));
  return true;
}

bool refuse_bad_key_id(const context_ptr& ctx, const std::string& id) {
  if (core::has_id_shape(id, "key"))
    return false;
  reply_error(ctx, schema::make_api_error(schema::error_code::resource_not_found,
                                          {{"kind", "api_key"}, {"id", id.substr(0, 64)}}, "id"));
  return true;
}

} // namespace

void list_api_keys(const context_ptr& ctx) {
  if (refuse_rotating_key(ctx))
    return;
  auto params = read_list_params(ctx, "key");
  if (!params)
    return;
  reply_team_keys(ctx, ctx->team->id, *params);
}

void rotate_api_key(const context_ptr& ctx) {
  auto& id = ctx->param("id");
  if (refuse_rotating_key(ctx) || refuse_bad_key_id(ctx, id) || !read_json_object(ctx, {}, empty_body::allowed))
    return;
  ask<actors::issued_key>(
    ctx, ctx->svc.actors().keyring,
    [ctx](actors::issued_key& k) {
      auto view = schema::api_key_view(k.record, k.plaintext);
      view.as_object()["previous_key"] = schema::api_key_view(k.previous);
      reply_json(ctx, 200, view);
    },
    actors::rotate_atom::value, id, ctx->team->id);
}

void revoke_api_key(const context_ptr& ctx) {
  auto& id = ctx->param("id");
  if (refuse_rotating_key(ctx) || refuse_bad_key_id(ctx, id) || !read_json_object(ctx, {}, empty_body::allowed))
    return;
  ask<schema::api_key_record>(
    ctx, ctx->svc.actors().keyring, [ctx](schema::api_key_record& k) { reply_json(ctx, 200, schema::api_key_view(k)); },
    actors::revoke_atom::value, id, ctx->team->id);
}

} // namespace svc::http
