#pragma once
// The ownership gate of a cluster node: every actor that creates or resumes
// state for a team asks it first, so a node never holds state of a team whose
// shard is frozen, released or owned by another node.

#include <string>

#include "actors/context.hpp"

namespace svc::actors {

/// Whether this node holds `team_id` now (always, on a single node).
inline bool holds_team(const context& ctx, const std::string& team_id) {
  return !ctx.owns_team || ctx.owns_team(team_id);
}

/// The 503 `owner_unavailable` of a team this node does not hold.
inline caf::error team_not_held() { return make_domain_error(schema::error_code::owner_unavailable); }

} // namespace svc::actors
