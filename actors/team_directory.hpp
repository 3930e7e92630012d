#pragma once
// The team directory actor: creates teams (with their opening balance) and
// changes their records one at a time (updates, disable and enable), answering
// after the change is durable.
// Bucket overrides are forwarded to the team's live bucket actor; credits
// after creation belong to the team's ledger (ledger_directory.hpp).

#include "actors/context.hpp"

namespace svc::actors {

struct team_directory_state {
  uint64_t created = 0;
  uint64_t changes = 0;
  static inline const char* name = "team_directory";
};

team_directory_actor::behavior_type team_directory(team_directory_actor::stateful_pointer<team_directory_state> self,
                                                   context ctx, bucket_directory_actor buckets);

} // namespace svc::actors
