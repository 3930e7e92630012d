#pragma once
// The bucket actor: one per team, holding a token bucket for every class of
// the contract (overrides applied). Its levels are snapshotted to LMDB every
// `bucket_snapshot_interval` while they change and on request at shutdown, so
// a restart does not refill a drained bucket; never one write per request.

#include <array>
#include <optional>

#include "actors/context.hpp"
#include "actors/token_bucket.hpp"

namespace svc::actors {

struct bucket_state {
  std::string team_id;
  std::vector<token_bucket> buckets; ///< indexed by bucket_class (team classes only)
  bool dirty = false;                ///< changed since the last snapshot
  bool timer_armed = false;
  static inline const char* name = "bucket";
};

/// Spawns with the team's overrides and, if any, its last snapshot.
bucket_actor::behavior_type bucket(bucket_actor::stateful_pointer<bucket_state> self, context ctx, std::string team_id,
                                   bucket_overrides overrides,
                                   std::optional<schema::bucket_snapshot> snapshot);

/// The effective limits of a class given a team's overrides.
schema::bucket_limits effective_limits(schema::bucket_class cls,
                                       const bucket_overrides& overrides);

/// A team's bucket of class `cls` as its actor starts it at `now_ms`: the
/// snapshot's level refilled since its reading, or full without one.
token_bucket restore_bucket(schema::bucket_class cls, const bucket_overrides& overrides,
                            const std::optional<schema::bucket_snapshot>& snapshot, int64_t now_ms);

/// The verdict and X-RateLimit-* values of a take `r` from bucket `b` of class `cls`
/// (the actor's and the HTTP side's copy of it answer alike).
rate_decision decision_of(schema::bucket_class cls, const token_bucket& b, const take_result& r);

} // namespace svc::actors
