#pragma once
// The team directory actor: creates teams and changes their records and
// balances one at a time, answering after the change is durable. Bucket
// overrides are forwarded to the team's live bucket actor.

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
