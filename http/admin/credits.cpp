// svcctl credits add / history / refund: a team's credits as its operator moves and audits them.
#include <boost/json.hpp>

#include "http/actor_call.hpp"
#include "http/admin/admin_handlers.hpp"
#include "http/admin/path_record.hpp"
#include "http/json_body.hpp"
#include "http/list_params.hpp"
#include "http/respond.hpp"
#include "persistence/credit_entry_rows.hpp"
#include "schema/credit_entry_view.hpp"
#include "schema/field_reader.hpp"
#include "schema/views.hpp"

namespace svc::http {
namespace {

// The optional `reason` of a body read by `f`: "" when not given.
std::string reason_of(schema::field_reader& f) {
  return f.text("reason", 0, schema::max_credit_reason_bytes).value_or("");
}

// What POST /admin/teams/{id}/credits asks for.
struct credit_change {
  int64_t amount = 0;
  std::string reason;
};

} // namespace

void add_credits(const context_ptr& ctx) {
  auto change = read_fields(ctx, {"amount", "reason"}, [](schema::field_reader& f) {
    credit_change c;
    c.amount = f.integer("amount", -schema::max_credits, schema::max_credits, true).value_or(0);
    c.reason = reason_of(f);
    return c;
  });
  if (!change)
    return;
  auto team_id = ctx->param("id");
  ask<schema::balance_record>(
    ctx, ctx->svc.actors().ledgers,
    [ctx, team_id](schema::balance_record& b) {
      // The credit is committed: a threshold the store cannot give is shown as 0.
      auto team = ctx->svc.tables().teams.get(team_id);
      reply_json(ctx, 200, schema::balance_view(b, team.has_value() ? team->balance_low_threshold : 0));
    },
    actors::credit_atom::value, team_id, change->amount, change->reason);
}

void list_team_credits(const context_ptr& ctx) {
  auto params = read_list_params(ctx, "cre");
  auto team = params ? path_record(ctx, ctx->svc.tables().teams, {"team"}, "team") : std::nullopt;
  if (!team)
    return;
  // Entries are keyed by their ULID under the team: a reverse scan is newest first.
  persistence::scan_range range{team->id + "/", "", true};
  if (!params->starting_after.empty())
    range.start_after = persistence::credit_entry_key(team->id, params->starting_after);
  reply_record_page(ctx, ctx->svc.tables().credit_entries, range, params->limit, schema::credit_entry_view);
}

void refund_job(const context_ptr& ctx) {
  auto reason = read_fields(ctx, {"reason"}, reason_of, empty_body::allowed);
  if (!reason)
    return;
  auto job = path_record(ctx, ctx->svc.tables().jobs, {"img", "vid"}, "job");
  if (!job)
    return;
  ask<schema::credit_entry_record>(
    ctx, ctx->svc.actors().ledgers,
    [ctx](schema::credit_entry_record& e) { reply_json(ctx, 200, schema::credit_entry_view(e)); },
    actors::refund_atom::value, job->id, *reason);
}

} // namespace svc::http
