#pragma once
// A team as every admin route that answers one shows it: the team, its
// balance and its disable (schema::admin_team_view), read after any change.

#include <boost/json/value.hpp>

#include "http/request_context.hpp"
#include "persistence/read_result.hpp"
#include "schema/records.hpp"

namespace svc::http {

/// `t` with its balance as stored now; an error when the store cannot read the balance.
persistence::read_result<boost::json::value> admin_team(const context_ptr& ctx, const schema::team_record& t);

/// Answers 200 with `admin_team(ctx, t)`, or 503 when the store cannot read the balance.
void reply_admin_team(const context_ptr& ctx, const schema::team_record& t);

} // namespace svc::http
