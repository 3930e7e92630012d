#pragma once
// The ledger actor: one per team, the only owner of the team's credits and
// the point where its creates are admitted. It keeps the balance, the open
// holds and the in-flight idempotency keys in memory (loaded at spawn from
// the balance and the open holds), applies each change at once and answers
// after the change (balance, hold and the job's rows in one batch) is durable,
// so no hold is lost or settled twice, also across a crash. Every change
// carries its credit history entry in the same batch (credit_history.hpp).
// Its batches are chained commits: when one fails (a full store), the store
// refuses the ones sent after it, which were computed from it, and the ledger
// reloads its books from LMDB and goes on, so the balance row and the hold
// rows always change together.

#include <map>
#include <set>
#include <string>

#include "actors/context.hpp"

namespace svc::actors {

/// Largest credit amount or balance accepted: far past any real use, far from overflow.
inline constexpr int64_t max_credits = schema::max_credits;

struct ledger_state {
  schema::balance_record balance;                   ///< including changes still committing
  std::map<std::string, schema::hold_record> holds; ///< open holds by job id
  std::set<std::string> admitting;                  ///< idempotency keys whose create is committing
  std::set<std::string> refunding;                  ///< jobs whose refund is committing
  std::map<std::string, schema::usage_record> usage; ///< days touched since spawn, by date
  uint64_t changes = 0;                              ///< changes committed since spawn
  /// Counts the failed commits the ledger reloaded after: an answer to a
  /// batch of an earlier generation finds memory reloaded already.
  uint64_t generation = 0;
  static inline const char* name = "ledger";
};

/// The LMDB key of a job's hold: `team_id/job_id`.
std::string hold_key(const std::string& team_id, const std::string& job_id);

/// The LMDB key of a team's usage on a day: `team_id/YYYY-MM-DD`.
std::string usage_key(const std::string& team_id, const std::string& date);

/// Spawned by the ledger directory; restores the team's balance and open holds from LMDB.
ledger_actor::behavior_type ledger(ledger_actor::stateful_pointer<ledger_state> self, context ctx,
                                   std::string team_id);

} // namespace svc::actors
