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

} // namespace

void add_credits(const context_ptr& ctx) {
  auto body = read_json_object(ctx, {"amount", "reason"});
  if (!body)
    return;
  schema::field_reader f{*body, schema::json_discipline::strict};
  auto amount = f.integer("amount", -schema::max_credits, schema::max_credits, true);
  auto reason = reason_of(f);
  if (f.error())
    return reply_error(ctx, *f.error());
  auto team_id = ctx->param("id");
  ask<schema::balance_record>(
    ctx, ctx->svc.actors().ledgers,
    [ctx, team_id](schema::balance_record& b) {
      // The credit is committed: a threshold the store cannot give is shown as 0.
      auto team = ctx->svc.tables().teams.get(team_id);
      reply_json(ctx, 200, schema::balance_view(b, team.has_value() ? team->balance_low_threshold : 0));
    },
    actors::credit_atom::value, team_id, *amount, reason);
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
  bool more = false;
  auto entries = ctx->svc.tables().credit_entries.page(range, params->limit, more);
  if (entries.failed())
    return reply_storage_failure(ctx, entries.why());
  boost::json::array data;
  for (auto& e : *entries)
    data.push_back(schema::credit_entry_view(e));
  reply_json(ctx, 200, schema::list_view(std::move(data), more));
}

void refund_job(const context_ptr& ctx) {
  auto body = read_json_object(ctx, {"reason"}, empty_body::allowed);
  if (!body)
    return;
  schema::field_reader f{*body, schema::json_discipline::strict};
  auto reason = reason_of(f);
  if (f.error())
    return reply_error(ctx, *f.error());
  auto job = path_record(ctx, ctx->svc.tables().jobs, {"img", "vid"}, "job");
  if (!job)
    return;
  ask<schema::credit_entry_record>(
    ctx, ctx->svc.actors().ledgers,
    [ctx](schema::credit_entry_record& e) { reply_json(ctx, 200, schema::credit_entry_view(e)); },
    actors::refund_atom::value, job->id, reason);
}

} // namespace svc::http
