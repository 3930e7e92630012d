#include <boost/json.hpp>

#include "http/actor_call.hpp"
#include "http/handlers/handlers.hpp"
#include "http/json_body.hpp"
#include "schema/field_reader.hpp"
#include "schema/views.hpp"

namespace svc::http {
namespace {

// The view written straight into the body: no json::value tree on the read path.
void reply_team(const context_ptr& ctx, const schema::team_record& t) {
  std::string body;
  schema::write_team_view(body, t);
  reply_body(ctx, 200, std::move(body), "application/json");
}

} // namespace

void get_team(const context_ptr& ctx) { reply_team(ctx, *ctx->team); }

void patch_team(const context_ptr& ctx) {
  auto threshold = read_fields(ctx, {"balance_low_threshold"}, [](schema::field_reader& f) {
    return f.integer("balance_low_threshold", 0, int64_t{1} << 50);
  });
  if (!threshold)
    return;
  if (!*threshold) // not given: nothing to change
    return reply_team(ctx, *ctx->team);
  actors::team_update update;
  update.balance_low_threshold = *threshold;
  ask<schema::team_record>(
    ctx, ctx->svc.actors().teams, [ctx](schema::team_record& t) { reply_team(ctx, t); },
    actors::patch_atom::value, ctx->team->id, std::move(update));
}

} // namespace svc::http
