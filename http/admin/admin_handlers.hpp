#pragma once
// The admin listener's handlers: health, metrics, the live-actor listing and
// the operator commands behind svcctl.

#include "http/request_context.hpp"

namespace svc::http {

// health.cpp
void get_healthz(const context_ptr& ctx);
void get_readyz(const context_ptr& ctx);
/// POST /admin/faults: the fault switch for tests (only with --fault-injection).
void set_faults(const context_ptr& ctx);
void get_metrics(const context_ptr& ctx);
// actors.cpp
void list_actors(const context_ptr& ctx);
// teams.cpp
void create_team(const context_ptr& ctx);
void set_team_limits(const context_ptr& ctx);
void add_credits(const context_ptr& ctx);
// keys.cpp
void create_key(const context_ptr& ctx);
void admin_rotate_key(const context_ptr& ctx);
void admin_revoke_key(const context_ptr& ctx);
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
