#include "http/handlers/handlers.hpp"
#include "http/respond.hpp"
#include "schema/views.hpp"

namespace svc::http {

void get_balance(const context_ptr& ctx) {
  auto& team = *ctx->team;
  auto balance = ctx->svc.tables().balances.get(team.id);
  if (balance.failed())
    return reply_storage_failure(ctx, balance.why());
  reply_json(ctx, 200, schema::balance_view(balance.has_value() ? *balance : schema::balance_record{team.id, 0, 0, {}},
                                            team.balance_low_threshold));
}

} // namespace svc::http
