// The admin listener's route table. Every route but health needs the admin token.
#include "http/admin/admin_handlers.hpp"
#include "http/pipeline.hpp"

namespace svc::http {

std::vector<route> admin_routes() {
  using v = beast::http::verb;
  using s = schema::scope;
  using b = schema::bucket_class;
  return {
    {v::get, "/healthz", s::none, b::anonymous, get_healthz, "liveness"},
    {v::get, "/readyz", s::none, b::anonymous, get_readyz, "readiness (503 while recovering at start, draining or while the store fails reads)"},
    {v::post, "/admin/faults", s::full, b::anonymous, set_faults, "fault switch for tests (--fault-injection)"},
    {v::get, "/metrics", s::full, b::anonymous, get_metrics, "Prometheus metrics"},
    {v::get, "/admin/actors", s::full, b::anonymous, list_actors, "live actors"},
    {v::post, "/admin/teams", s::full, b::anonymous, create_team, "create a team"},
    {v::get, "/admin/teams", s::full, b::anonymous, list_teams, "list teams with their balances"},
    {v::get, "/admin/teams/{id}", s::full, b::anonymous, show_team, "one team with its balance"},
    {v::patch, "/admin/teams/{id}", s::full, b::anonymous, update_team, "change a team's settings"},
    {v::post, "/admin/teams/{id}/disable", s::full, b::anonymous, disable_team, "refuse the team's keys"},
    {v::post, "/admin/teams/{id}/enable", s::full, b::anonymous, enable_team, "give the team's keys back"},
    {v::get, "/admin/teams/{id}/keys", s::full, b::anonymous, list_team_keys, "a team's API keys"},
    {v::post, "/admin/teams/{id}/limits", s::full, b::anonymous, set_team_limits, "override a bucket class"},
    {v::post, "/admin/teams/{id}/credits", s::full, b::anonymous, add_credits, "add credits"},
    {v::get, "/admin/teams/{id}/credits", s::full, b::anonymous, list_team_credits, "a team's credit history"},
    {v::post, "/admin/keys", s::full, b::anonymous, create_key, "issue an API key"},
    {v::post, "/admin/keys/{id}/rotate", s::full, b::anonymous, admin_rotate_key, "rotate an API key"},
    {v::post, "/admin/keys/{id}/revoke", s::full, b::anonymous, admin_revoke_key, "revoke an API key at once"},
    {v::get, "/admin/teams/{id}/usage", s::full, b::anonymous, team_usage, "a team's usage per UTC day"},
    {v::get, "/admin/teams/{id}/endpoints", s::full, b::anonymous, list_team_endpoints, "a team's webhook endpoints"},
    {v::post, "/admin/endpoints/{id}/disable", s::full, b::anonymous, disable_endpoint, "stop an endpoint's deliveries"},
    {v::post, "/admin/endpoints/{id}/enable", s::full, b::anonymous, enable_endpoint, "resume an endpoint"},
    {v::get, "/admin/jobs/{id}", s::full, b::anonymous, show_job, "any team's image or video"},
    {v::post, "/admin/jobs/{id}/cancel", s::full, b::anonymous, admin_cancel_job, "cancel a job, refunding its team"},
    {v::post, "/admin/jobs/{id}/refund", s::full, b::anonymous, refund_job, "refund a succeeded job's charge"},
    {v::post, "/admin/loras", s::full, b::anonymous, add_lora, "add a LoRA"},
    {v::post, "/admin/backup", s::full, b::anonymous, backup_store, "compacted copy of the store"},
    {v::get, "/", s::none, b::anonymous, get_console, "operator console (the page asks for the token)"},
    {v::get, "/admin/overview", s::full, b::anonymous, get_overview, "teams, renders, endpoints, recent 5xx"},
  };
}

} // namespace svc::http
