#include "actors/credit_history.hpp"

#include "core/ids.hpp"
#include "core/shard.hpp"
#include "persistence/credit_entry_rows.hpp"

namespace svc::actors {

schema::credit_entry_record put_credit_entry(const context& ctx, persistence::write_batch& batch,
                                             const schema::balance_record& after, schema::credit_entry_kind kind,
                                             int64_t amount, std::string job_id, std::string reason) {
  schema::credit_entry_record e;
  e.id = core::make_id("cre", core::shard_of_team(after.team_id));
  e.team_id = after.team_id;
  e.kind = kind;
  e.amount = amount;
  e.available_after = after.available;
  e.held_after = after.held;
  e.job_id = std::move(job_id);
  e.reason = std::move(reason);
  e.created_at = ctx.clock->now();
  ctx.tables->credit_entries.put(batch, persistence::credit_entry_key(e.team_id, e.id), e);
  return e;
}

} // namespace svc::actors
