#pragma once
// One page of a team's API keys, newest first: GET /v1/api_keys for the
// caller's team and GET /admin/teams/{id}/keys for any team.

#include <string>

#include "http/list_params.hpp"

namespace svc::http {

/// Answers 200 with the list envelope of `team_id`'s keys after the cursor, or 503 when a read failed.
void reply_team_keys(const context_ptr& ctx, const std::string& team_id, const list_params& params);

} // namespace svc::http
