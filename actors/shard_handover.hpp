#pragma once
// The shard handover actor: the one place that knows which actors hold state
// of a shard's teams, and in which order they let go of it (a shard moving
// off this node) or take it up (a shard moving onto it). See
// `shard_handover_actor` in messages.hpp for the contract.

#include "actors/context.hpp"

namespace svc::actors {

/// The directories a handover asks, and the store whose round trip ends a release.
struct handover_targets {
  job_directory_actor jobs;
  endpoint_directory_actor webhooks;
  bucket_directory_actor buckets;
  ledger_directory_actor ledgers;
  keyring_actor keyring;
  store_actor store;
};

/// How long one directory may take to let go of a shard or take it up (an
/// endpoint waits for its writes to land, retrying a failing store).
inline constexpr std::chrono::seconds handover_step_timeout{60};

struct shard_handover_state {
  static inline const char* name = "shard_handover";
};

shard_handover_actor::behavior_type shard_handover(shard_handover_actor::stateful_pointer<shard_handover_state> self,
                                                   context ctx, handover_targets targets);

} // namespace svc::actors
