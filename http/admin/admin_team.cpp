#include "http/admin/admin_team.hpp"

#include <boost/json.hpp>

#include "http/respond.hpp"
#include "schema/views.hpp"

namespace svc::http {

persistence::read_result<boost::json::value> admin_team(const context_ptr& ctx, const schema::team_record& t) {
  auto balance = ctx->svc.tables().balances.get(t.id);
  if (balance.failed())
    return persistence::read_result<boost::json::value>::error(balance.why());
  return schema::admin_team_view(t, balance.has_value() ? *balance : schema::balance_record{t.id, 0, 0, {}});
}

void reply_admin_team(const context_ptr& ctx, const schema::team_record& t) {
  auto view = admin_team(ctx, t);
  if (view.failed())
    return reply_storage_failure(ctx, view.why());
  reply_json(ctx, 200, *view);
}

} // namespace svc::http
