#pragma once
// The ledger directory: owns every team's ledger actor. A team's ledger is
// spawned on first use (restoring its balance and open holds from LMDB) and
// lives until shutdown (or until it dies: see supervision.hpp). Messages
// naming a team are checked against the teams table, then delegated to that
// team's ledger.

#include <unordered_map>

#include "actors/context.hpp"
#include "actors/release_round.hpp"

namespace svc::actors {

struct ledger_directory_state {
  std::unordered_map<std::string, ledger_actor> ledgers; ///< live ledgers by team id
  release_rounds releases; ///< shards being released, waiting for their ledgers to exit
  static inline const char* name = "ledger_directory";
};

ledger_directory_actor::behavior_type ledger_directory(
  ledger_directory_actor::stateful_pointer<ledger_directory_state> self, context ctx);

} // namespace svc::actors
