#include <boost/json.hpp>

#include "http/actor_call.hpp"
#include "http/admin/admin_handlers.hpp"
#include "http/json_body.hpp"
#include "schema/field_reader.hpp"
#include "schema/views.hpp"

namespace svc::http {
namespace {

// svcctl's shape: the plaintext key beside its id, scope and team.
boost::json::object issued_view(const actors::issued_key& k) {
  boost::json::object o{{"id", k.record.id},
                        {"object", "api_key"},
                        {"key", k.plaintext},
                        {"scope", schema::to_string(k.record.key_scope)},
                        {"team_id", k.record.team_id}};
  if (!k.previous.id.empty())
    o["previous_key"] = schema::api_key_view(k.previous);
  return o;
}

// What POST /admin/keys asks for.
struct key_request {
  std::string team_id;
  schema::scope scope = schema::scope::none;
};

} // namespace

void create_key(const context_ptr& ctx) {
  auto request = read_fields(ctx, {"team_id", "scope"}, [](schema::field_reader& f) {
    key_request r;
    r.team_id = f.text("team_id", 1, 64, true).value_or("");
    auto scope = schema::scope_from_name(f.text("scope", 1, 16, true).value_or(""));
    if (!scope)
      f.fail("scope", "must be read, write or full");
    r.scope = scope.value_or(schema::scope::none);
    return r;
  });
  if (!request)
    return;
  ask<actors::issued_key>(
    ctx, ctx->svc.actors().keyring, [ctx](actors::issued_key& k) { reply_json(ctx, 201, issued_view(k)); },
    actors::create_atom::value, request->team_id, request->scope);
}

void admin_rotate_key(const context_ptr& ctx) {
  if (!read_json_object(ctx, {}, empty_body::allowed))
    return;
  ask<actors::issued_key>(
    ctx, ctx->svc.actors().keyring, [ctx](actors::issued_key& k) { reply_json(ctx, 200, issued_view(k)); },
    actors::rotate_atom::value, ctx->param("id"), std::string{});
}

void admin_revoke_key(const context_ptr& ctx) {
  if (!read_json_object(ctx, {}, empty_body::allowed))
    return;
  ask<schema::api_key_record>(
    ctx, ctx->svc.actors().keyring, [ctx](schema::api_key_record& k) { reply_json(ctx, 200, schema::api_key_view(k)); },
    actors::revoke_atom::value, ctx->param("id"), std::string{});
}

} // namespace svc::http
