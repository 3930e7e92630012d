#pragma once
// The admin listener's handlers: health, metrics, the live-actor listing and
// the operator commands behind svcctl.

#include <boost/json/object.hpp>

#include "http/request_context.hpp"

namespace svc::http {

// health.cpp
void get_healthz(const context_ptr& ctx);
void get_readyz(const context_ptr& ctx);
/// POST /admin/faults: the fault switch for tests (only with --fault-injection).
void set_faults(const context_ptr& ctx);
void get_metrics(const context_ptr& ctx);
// cluster.cpp
/// GET /admin/cluster: the members, the map revision, shards per node and each peer's link.
void get_cluster(const context_ptr& ctx);

// shard_moves.cpp
/// POST /admin/shards/{shard}/move: starts moving a shard this node holds to the node `to` (202).
void move_shard(const context_ptr& ctx);
/// GET /admin/shards/{shard}/move: the latest move of the shard this node knows of.
void show_shard_move(const context_ptr& ctx);
/// A move as `/admin/cluster` and the 202 show it.
boost::json::object shard_move_json(const actors::shard_move_status& m);
// actors.cpp
void list_actors(const context_ptr& ctx);
void list_engines(const context_ptr& ctx);
void show_engine(const context_ptr& ctx);
void add_engine(const context_ptr& ctx);
void drain_engine(const context_ptr& ctx);
void resume_engine(const context_ptr& ctx);
void remove_engine(const context_ptr& ctx);
// teams.cpp
void create_team(const context_ptr& ctx);
void set_team_limits(const context_ptr& ctx);
void set_team_renders(const context_ptr& ctx);
/// PATCH /admin/teams/{id}: changes name, owner_email, balance_low_threshold, default_api_version (all or none).
void update_team(const context_ptr& ctx);
/// POST /admin/teams/{id}/disable: refuses every API request with the team's keys from the next one on.
void disable_team(const context_ptr& ctx);
/// POST /admin/teams/{id}/enable: gives the team's keys back their access at once.
void enable_team(const context_ptr& ctx);
// credits.cpp
/// POST /admin/teams/{id}/credits: adds (or removes) credits with an optional reason; the balance after.
void add_credits(const context_ptr& ctx);
/// GET /admin/teams/{id}/credits: the team's credit history, newest first, paged; 404 for an unknown id.
void list_team_credits(const context_ptr& ctx);
/// POST /admin/jobs/{id}/refund: gives back a succeeded job's charge once; the history entry.
void refund_job(const context_ptr& ctx);
// team_reads.cpp
/// GET /admin/teams: every team with its balance, by id, paged.
void list_teams(const context_ptr& ctx);
/// GET /admin/teams/{id}: one team with its balance; 404 for an unknown id.
void show_team(const context_ptr& ctx);
/// GET /admin/teams/{id}/keys: the team's API keys (never their plaintext), newest first.
void list_team_keys(const context_ptr& ctx);
/// GET /admin/teams/{id}/endpoints: the team's webhook endpoints, newest first.
void list_team_endpoints(const context_ptr& ctx);
/// GET /admin/teams/{id}/usage: the team's usage per UTC day, as GET /v1/usage answers it; 404 for an unknown id.
void team_usage(const context_ptr& ctx);
// endpoints.cpp
/// POST /admin/endpoints/{id}/disable: stops deliveries, as the team's `is_active: false` does.
void disable_endpoint(const context_ptr& ctx);
/// POST /admin/endpoints/{id}/enable: resumes them and resets the failure count.
void enable_endpoint(const context_ptr& ctx);
// keys.cpp
void create_key(const context_ptr& ctx);
void admin_rotate_key(const context_ptr& ctx);
void admin_revoke_key(const context_ptr& ctx);
// jobs.cpp
/// GET /admin/jobs/{id}: any team's image or video, with its team_id; 404 for an unknown id.
void show_job(const context_ptr& ctx);
/// POST /admin/jobs/{id}/cancel: cancels it as its team would (refund durable before the answer).
void admin_cancel_job(const context_ptr& ctx);
// loras.cpp
void add_lora(const context_ptr& ctx);
// backup.cpp
void backup_store(const context_ptr& ctx);
// console.cpp
/// GET /: the operator console page (no data in it, so no token needed to load it).
void get_console(const context_ptr& ctx);
// overview.cpp
/// GET /admin/overview: teams, render queue, endpoints and recent 5xx for the console.
void get_overview(const context_ptr& ctx);

} // namespace svc::http
