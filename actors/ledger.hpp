#pragma once
// The ledger actor: one per team, the only owner of the team's credits. It
// keeps the balance and the jobs' open holds in memory (loaded once at spawn),
// makes one change at a time, and answers only after the change (balance and
// hold record in one batch) is durable, so no hold is lost or settled twice.

#include <map>
#include <string>

#include "actors/context.hpp"

namespace svc::actors {

/// Largest credit amount or balance accepted: far past any real use, far from overflow.
inline constexpr int64_t max_credits = int64_t{1} << 50;

struct ledger_state {
  schema::balance_record balance;                  ///< as last committed
  std::map<std::string, schema::hold_record> holds; ///< open (`held`) holds by job id
  uint64_t changes = 0;                             ///< changes committed since spawn
  static inline const char* name = "ledger";
};

/// The LMDB key of a job's hold: `team_id/job_id`.
std::string hold_key(const std::string& team_id, const std::string& job_id);

/// Spawned by the ledger directory; restores the team's balance and open holds from LMDB.
ledger_actor::behavior_type ledger(ledger_actor::stateful_pointer<ledger_state> self, context ctx,
                                   std::string team_id);

} // namespace svc::actors
