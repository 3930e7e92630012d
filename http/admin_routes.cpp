// The admin listener's route table. Every route but the probes and the console
// page needs the admin token.
#include "http/admin/admin_handlers.hpp"
#include "http/pipeline.hpp"

namespace svc::http {
namespace {

// A route of the operator: the admin token (scope `full`), no rate bucket;
// in a cluster, answered by the node `owner` says.
route with_token(beast::http::verb method, std::string_view path, route_handler handler, std::string_view summary,
                 shard_rule owner = shard_rule::here) {
  return {method, path, schema::scope::full, schema::bucket_class::anonymous, handler, summary, false, owner};
}

// A route for probes and the console page, which carries no data.
route without_token(beast::http::verb method, std::string_view path, route_handler handler, std::string_view summary) {
  return {method, path, schema::scope::none, schema::bucket_class::anonymous, handler, summary};
}

} // namespace

std::vector<route> admin_routes() {
  using v = beast::http::verb;
  constexpr auto by_team = shard_rule::team_in_path;
  constexpr auto by_id = shard_rule::id_in_path;
  constexpr auto by_shard = shard_rule::shard_in_path;
  constexpr auto by_body_team = shard_rule::team_in_body;
  constexpr auto new_team = shard_rule::new_team;
  return {
    without_token(v::get, "/healthz", get_healthz, "liveness"),
    without_token(v::get, "/readyz", get_readyz,
                  "readiness (503 while recovering at start, draining or while the store fails reads)"),
    with_token(v::post, "/admin/faults", set_faults, "fault switch for tests (--fault-injection)"),
    with_token(v::get, "/metrics", get_metrics, "Prometheus metrics"),
    with_token(v::get, "/admin/actors", list_actors, "live actors"),
    with_token(v::get, "/admin/engines", list_engines, "the engines: state, slots, renders and the jobs holding them"),
    with_token(v::post, "/admin/engines", add_engine, "add an engine (stored: a restart keeps it)"),
    with_token(v::get, "/admin/engines/{name}", show_engine, "one engine"),
    with_token(v::delete_, "/admin/engines/{name}", remove_engine, "remove an engine; its running renders finish"),
    with_token(v::post, "/admin/engines/{name}/drain", drain_engine, "give an engine no new renders"),
    with_token(v::post, "/admin/engines/{name}/resume", resume_engine, "give a drained engine renders again"),
    with_token(v::get, "/admin/cluster", get_cluster, "this node's view of its cluster: members, shard map, peers"),
    with_token(v::post, "/admin/shards/{shard}/move", move_shard, "move a shard this node holds to another node", by_shard),
    with_token(v::get, "/admin/shards/{shard}/move", show_shard_move, "the latest move of a shard", by_shard),
    with_token(v::post, "/admin/teams", create_team, "create a team", new_team),
    with_token(v::get, "/admin/teams", list_teams, "list teams with their balances"),
    with_token(v::get, "/admin/teams/{id}", show_team, "one team with its balance", by_team),
    with_token(v::patch, "/admin/teams/{id}", update_team, "change a team's settings", by_team),
    with_token(v::post, "/admin/teams/{id}/disable", disable_team, "refuse the team's keys", by_team),
    with_token(v::post, "/admin/teams/{id}/enable", enable_team, "give the team's keys back", by_team),
    with_token(v::get, "/admin/teams/{id}/keys", list_team_keys, "a team's API keys", by_team),
    with_token(v::post, "/admin/teams/{id}/limits", set_team_limits, "override a bucket class", by_team),
    with_token(v::post, "/admin/teams/{id}/renders", set_team_renders, "set a team's render weight and cap", by_team),
    with_token(v::post, "/admin/teams/{id}/credits", add_credits, "add credits", by_team),
    with_token(v::get, "/admin/teams/{id}/credits", list_team_credits, "a team's credit history", by_team),
    with_token(v::post, "/admin/keys", create_key, "issue an API key", by_body_team),
    with_token(v::post, "/admin/keys/{id}/rotate", admin_rotate_key, "rotate an API key", by_id),
    with_token(v::post, "/admin/keys/{id}/revoke", admin_revoke_key, "revoke an API key at once", by_id),
    with_token(v::get, "/admin/teams/{id}/usage", team_usage, "a team's usage per UTC day", by_team),
    with_token(v::get, "/admin/teams/{id}/endpoints", list_team_endpoints, "a team's webhook endpoints", by_team),
    with_token(v::post, "/admin/endpoints/{id}/disable", disable_endpoint, "stop an endpoint's deliveries", by_id),
    with_token(v::post, "/admin/endpoints/{id}/enable", enable_endpoint, "resume an endpoint", by_id),
    with_token(v::get, "/admin/jobs/{id}", show_job, "any team's image or video", by_id),
    with_token(v::post, "/admin/jobs/{id}/cancel", admin_cancel_job, "cancel a job, refunding its team", by_id),
    with_token(v::post, "/admin/jobs/{id}/refund", refund_job, "refund a succeeded job's charge", by_id),
    with_token(v::post, "/admin/loras", add_lora, "add a LoRA"),
    with_token(v::post, "/admin/backup", backup_store, "compacted copy of the store"),
    without_token(v::get, "/", get_console, "operator console (the page asks for the token)"),
    with_token(v::get, "/admin/overview", get_overview, "teams, renders, endpoints, recent 5xx"),
  };
}

} // namespace svc::http
