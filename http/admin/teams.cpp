#include <boost/json.hpp>

#include "http/actor_call.hpp"
#include "http/admin/admin_handlers.hpp"
#include "http/admin/admin_team.hpp"
#include "http/json_body.hpp"
#include "http/stages/stages.hpp"
#include "schema/field_reader.hpp"
#include "schema/views.hpp"

namespace svc::http {
namespace {

void reply_team(const context_ptr& ctx, schema::team_record& t) { reply_json(ctx, 200, schema::team_view(t)); }

} // namespace

void create_team(const context_ptr& ctx) {
  auto body = read_json_object(ctx, {"name", "owner_email", "credits"});
  if (!body)
    return;
  schema::field_reader f{*body, schema::json_discipline::strict};
  actors::new_team req;
  req.name = f.text("name", 1, 200, true).value_or("");
  req.owner_email = f.text("owner_email", 1, 254, true).value_or("");
  req.credits = f.integer("credits", 0, int64_t{1} << 50).value_or(0);
  if (f.error())
    return reply_error(ctx, *f.error());
  ask<schema::team_record>(
    ctx, ctx->svc.actors().teams, [ctx](schema::team_record& t) { reply_json(ctx, 201, schema::team_view(t)); },
    actors::create_atom::value, req);
}

void set_team_limits(const context_ptr& ctx) {
  auto body = read_json_object(ctx, {"bucket", "capacity", "per_minute"});
  if (!body)
    return;
  schema::field_reader f{*body, schema::json_discipline::strict};
  auto bucket = f.text("bucket", 1, 64, true);
  auto capacity = f.number("capacity", schema::min_capacity, schema::max_capacity, true);
  auto per_minute = f.number("per_minute", schema::min_per_minute, schema::max_per_minute, true);
  if (f.error())
    return reply_error(ctx, *f.error());
  auto cls = schema::bucket_class_from_name(*bucket);
  if (!cls)
    return reply_error(ctx, schema::make_api_error(schema::error_code::invalid_parameter,
                                                   {{"detail", "not a bucket class"}}, "bucket"));
  // The takes decided from bucket copies reach the bucket ahead of its new
  // limits, as they would have had each gone to it (a shrunk bucket keeps what they took).
  charge_buckets(ctx->svc);
  ask<schema::team_record>(ctx, ctx->svc.actors().teams, [ctx](schema::team_record& t) { reply_team(ctx, t); },
                           actors::limits_atom::value, ctx->param("id"), *cls,
                           schema::bucket_limits{*capacity, *per_minute});
}

void update_team(const context_ptr& ctx) {
  auto body = read_json_object(ctx, {"name", "owner_email", "balance_low_threshold", "default_api_version"});
  if (!body)
    return;
  schema::field_reader f{*body, schema::json_discipline::strict};
  actors::team_update update;
  // Lengths and shapes beyond the JSON types are the team directory's to judge, as on create.
  update.name = f.text("name", 0, 200);
  update.owner_email = f.text("owner_email", 0, 254);
  update.default_api_version = f.text("default_api_version", 0, 64);
  update.balance_low_threshold = f.integer("balance_low_threshold", 0, int64_t{1} << 50);
  if (f.error())
    return reply_error(ctx, *f.error());
  ask<schema::team_record>(ctx, ctx->svc.actors().teams, [ctx](schema::team_record& t) { reply_admin_team(ctx, t); },
                           actors::patch_atom::value, ctx->param("id"), std::move(update));
}

void disable_team(const context_ptr& ctx) {
  auto body = read_json_object(ctx, {"reason"}, empty_body::allowed);
  if (!body)
    return;
  schema::field_reader f{*body, schema::json_discipline::strict};
  auto reason = f.text("reason", 0, schema::max_disabled_reason);
  if (f.error())
    return reply_error(ctx, *f.error());
  ask<schema::team_record>(ctx, ctx->svc.actors().teams, [ctx](schema::team_record& t) { reply_admin_team(ctx, t); },
                           actors::disable_atom::value, ctx->param("id"), reason.value_or(""));
}

void enable_team(const context_ptr& ctx) {
  if (!read_json_object(ctx, {}, empty_body::allowed))
    return;
  ask<schema::team_record>(ctx, ctx->svc.actors().teams, [ctx](schema::team_record& t) { reply_admin_team(ctx, t); },
                           actors::enable_atom::value, ctx->param("id"));
}

} // namespace svc::http
