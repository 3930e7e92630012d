#pragma once
// Writes a team's credit history: every writer of a balance row adds the
// entry that explains the change to the same batch, so a commit has both or
// neither, also across a crash.

#include <string>

#include "actors/context.hpp"
#include "schema/credit_entry.hpp"

namespace svc::actors {

/// Mints the entry of a change already applied to `after` (a new `cre_` id,
/// now by `ctx.clock`) and adds its row to `batch`; the entry.
schema::credit_entry_record put_credit_entry(const context& ctx, persistence::write_batch& batch,
                                             const schema::balance_record& after, schema::credit_entry_kind kind,
                                             int64_t amount, std::string job_id = {}, std::string reason = {});

} // namespace svc::actors
