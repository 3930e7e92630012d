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

// What POST /admin/teams/{id}/limits asks for.
struct limits_request {
  schema::bucket_class bucket = schema::bucket_class::anonymous;
  schema::bucket_limits limits{0, 0};
};

// What PATCH /admin/teams/{id} asks for. Lengths and shapes beyond the JSON
// types are the team directory's to judge, as on create.
actors::team_update read_team_update(schema::field_reader& f) {
  actors::team_update u;
  u.name = f.text("name", 0, 200);
  u.owner_email = f.text("owner_email", 0, 254);
  u.default_api_version = f.text("default_api_version", 0, 64);
  u.balance_low_threshold = f.integer("balance_low_threshold", 0, int64_t{1} << 50);
  return u;
}

} // namespace

void create_team(const context_ptr& ctx) {
  auto request = read_fields(ctx, {"name", "owner_email", "credits"}, [](schema::field_reader& f) {
    actors::new_team r;
    r.name = f.text("name", 1, 200, true).value_or("");
    r.owner_email = f.text("owner_email", 1, 254, true).value_or("");
    r.credits = f.integer("credits", 0, int64_t{1} << 50).value_or(0);
    return r;
  });
  if (!request)
    return;
  ask<schema::team_record>(
    ctx, ctx->svc.actors().teams, [ctx](schema::team_record& t) { reply_json(ctx, 201, schema::team_view(t)); },
    actors::create_atom::value, *request);
}

void set_team_limits(const context_ptr& ctx) {
  auto request = read_fields(ctx, {"bucket", "capacity", "per_minute"}, [](schema::field_reader& f) {
    limits_request r;
    auto bucket = f.text("bucket", 1, 64, true);
    r.limits.capacity = f.number("capacity", schema::min_capacity, schema::max_capacity, true).value_or(0);
    r.limits.per_minute = f.number("per_minute", schema::min_per_minute, schema::max_per_minute, true).value_or(0);
    auto cls = schema::bucket_class_from_name(bucket.value_or(""));
    if (!cls)
      f.fail("bucket", "not a bucket class");
    r.bucket = cls.value_or(schema::bucket_class::anonymous);
    return r;
  });
  if (!request)
    return;
  // The takes decided from bucket copies reach the bucket ahead of its new
  // limits, as they would have had each gone to it (a shrunk bucket keeps what they took).
  charge_buckets(ctx->svc);
  ask<schema::team_record>(ctx, ctx->svc.actors().teams, [ctx](schema::team_record& t) { reply_team(ctx, t); },
                           actors::limits_atom::value, ctx->param("id"), request->bucket, request->limits);
}

// The whole claim: a field left out takes its default (weight 1, no cap).
void set_team_renders(const context_ptr& ctx) {
  auto share = read_fields(ctx, {"weight", "max_concurrent"}, [](schema::field_reader& f) {
    schema::render_share s;
    s.weight = f.number("weight", schema::min_render_weight, schema::max_render_weight).value_or(1);
    s.max_concurrent = f.integer("max_concurrent", 0, schema::max_concurrent_renders).value_or(0);
    return s;
  });
  if (!share)
    return;
  ask<schema::team_record>(ctx, ctx->svc.actors().teams,
                           [ctx](schema::team_record& t) {
                             // Stored: the job directory serves the team's queue by it from now on.
                             caf::anon_send(ctx->svc.actors().jobs, actors::share_atom::value, t.id, t.renders);
                             reply_admin_team(ctx, t);
                           },
                           actors::share_atom::value, ctx->param("id"), *share);
}

void update_team(const context_ptr& ctx) {
  auto update =
    read_fields(ctx, {"name", "owner_email", "balance_low_threshold", "default_api_version"}, read_team_update);
  if (!update)
    return;
  ask<schema::team_record>(ctx, ctx->svc.actors().teams, [ctx](schema::team_record& t) { reply_admin_team(ctx, t); },
                           actors::patch_atom::value, ctx->param("id"), std::move(*update));
}

void disable_team(const context_ptr& ctx) {
  auto reason = read_fields(
    ctx, {"reason"},
    [](schema::field_reader& f) { return f.text("reason", 0, schema::max_disabled_reason).value_or(""); },
    empty_body::allowed);
  if (!reason)
    return;
  ask<schema::team_record>(ctx, ctx->svc.actors().teams, [ctx](schema::team_record& t) { reply_admin_team(ctx, t); },
                           actors::disable_atom::value, ctx->param("id"), *reason);
}

void enable_team(const context_ptr& ctx) {
  if (!read_json_object(ctx, {}, empty_body::allowed))
    return;
  ask<schema::team_record>(ctx, ctx->svc.actors().teams, [ctx](schema::team_record& t) { reply_admin_team(ctx, t); },
                           actors::enable_atom::value, ctx->param("id"));
}

} // namespace svc::http
