#pragma once
// The store actor: the single LMDB writer. Writers from every actor send
// batches; the store commits all that are waiting in one synced transaction
// and then answers each writer (group commit: one fsync per batch, not per write).
// A store that is full (its map, or the disk) answers `insufficient_storage`
// to the writes that need room, and still commits the others.

#include "actors/messages.hpp"
#include "persistence/environment.hpp"

#include <map>
#include <optional>
#include <vector>

namespace svc::actors {

struct store_state {
  struct waiting {
    persistence::write_batch batch;
    caf::typed_response_promise<bool> promise;
    caf::actor_addr writer; ///< who sent it: its later batches may build on this one
    bool chained = false;   ///< sent as `chained_commit`: its failure breaks the writer's chain
  };
  std::vector<waiting> pending;
  /// Writers whose chained batch failed, with the error their later chained
  /// batches get until they resume (or end: the store monitors them).
  std::map<caf::actor_addr, caf::error> broken_chains;
  bool flush_scheduled = false;
  uint64_t commits = 0;     ///< transactions committed or tried
  uint64_t batches = 0;     ///< writer batches committed
  uint64_t refused = 0;     ///< writer batches refused for lack of room
  uint64_t unlogged_refusals = 0;          ///< refused since the last warning about it
  std::optional<caf::actor_clock::time_point> refusal_logged_at; ///< the last such warning
  bool above_warning_level = false; ///< use crossed `store_warning_ratio` (and has not fallen below the re-arm level)
  uint64_t use_warnings = 0;        ///< crossings warned about
  static inline const char* name = "store";
};

/// Use of the map past which the store warns, once per crossing; it warns
/// again only after use fell below `store_rearm_ratio`.
inline constexpr double store_warning_ratio = 0.80;
inline constexpr double store_rearm_ratio = 0.75;

/// Spawn with `sys.spawn<caf::detached>(store, &env, true)`: fsync blocks its own
/// thread only. `group_commit` false commits each batch in its own transaction
/// (`--group-commit off`, the baseline the create benchmark compares against).
store_actor::behavior_type store(store_actor::stateful_pointer<store_state> self, persistence::environment* env,
                                 bool group_commit);

} // namespace svc::actors
