// What svcctl's team list / team show / key list / endpoint list / usage export read: straight from LMDB read
// transactions (no actor holds a team's record for reading), never changing state.
#include <boost/json.hpp>

#include "http/admin/admin_handlers.hpp"
#include "http/admin/admin_team.hpp"
#include "http/admin/path_record.hpp"
#include "http/handlers/handlers.hpp"
#include "http/list_params.hpp"
#include "http/team_key_list.hpp"
#include "http/respond.hpp"
#include "schema/views.hpp"
#include "schema/webhook_views.hpp"

namespace svc::http {
namespace {

// The team named by the path's {id}; nullopt after answering 404 or 503.
std::optional<schema::team_record> path_team(const context_ptr& ctx) {
  return path_record(ctx, ctx->svc.tables().teams, {"team"}, "team");
}

} // namespace

void list_teams(const context_ptr& ctx) {
  auto params = read_list_params(ctx, "team");
  if (!params)
    return;
  bool more = false;
  auto teams = ctx->svc.tables().teams.page({"", params->starting_after}, params->limit, more);
  if (teams.failed())
    return reply_storage_failure(ctx, teams.why());
  boost::json::array data;
  for (auto& t : *teams) {
    auto view = admin_team(ctx, t);
    if (view.failed())
      return reply_storage_failure(ctx, view.why());
    data.push_back(std::move(*view));
  }
  reply_json(ctx, 200, schema::list_view(std::move(data), more));
}

void show_team(const context_ptr& ctx) {
  auto team = path_team(ctx);
  if (!team)
    return;
  reply_admin_team(ctx, *team);
}

void list_team_keys(const context_ptr& ctx) {
  auto params = read_list_params(ctx, "key");
  auto team = params ? path_team(ctx) : std::nullopt;
  if (!team)
    return;
  reply_team_keys(ctx, team->id, *params);
}

void list_team_endpoints(const context_ptr& ctx) {
  auto params = read_list_params(ctx, "we");
  auto team = params ? path_team(ctx) : std::nullopt;
  if (!team)
    return;
  auto& tables = ctx->svc.tables();
  reply_team_list(ctx, team->id, tables.endpoints_by_team, "we", *params, [&](std::string_view id) {
    return tables.webhook_endpoints.get(id).map(
      [](schema::webhook_endpoint_record&& e) { return schema::webhook_endpoint_view(e); });
  });
}

void team_usage(const context_ptr& ctx) {
  if (auto team = path_team(ctx))
    reply_usage(ctx, team->id);
}

} // namespace svc::http
