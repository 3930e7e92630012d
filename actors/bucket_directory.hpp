#pragma once
// The bucket directory: owns every team's bucket actor. A team's bucket is
// spawned on its first request with the team's overrides and its last
// snapshot, and lives until shutdown (or until it dies: see supervision.hpp).

#include <unordered_map>

#include "actors/context.hpp"
#include "actors/release_round.hpp"

namespace svc::actors {

struct bucket_directory_state {
  std::unordered_map<std::string, bucket_actor> buckets;
  release_rounds releases; ///< shards being released, waiting for their buckets' snapshots
  static inline const char* name = "bucket_directory";
};

bucket_directory_actor::behavior_type bucket_directory(
  bucket_directory_actor::stateful_pointer<bucket_directory_state> self, context ctx);

} // namespace svc::actors
