#pragma once
// The store actor: the single LMDB writer. Writers from every actor send
// batches; the store commits all that are waiting in one synced transaction
// and then answers each writer (group commit: one fsync per batch, not per write).

#include "actors/messages.hpp"
#include "persistence/environment.hpp"

namespace svc::actors {

struct store_state {
  struct waiting {
    persistence::write_batch batch;
    caf::typed_response_promise<bool> promise;
  };
  std::vector<waiting> pending;
  bool flush_scheduled = false;
  uint64_t commits = 0;     ///< transactions committed
  uint64_t batches = 0;     ///< writer batches committed
  static inline const char* name = "store";
};

/// Spawn with `sys.spawn<caf::detached>(store, &env, true)`: fsync blocks its own
/// thread only. `group_commit` false commits each batch in its own transaction
/// (`--group-commit off`, the baseline the create benchmark compares against).
store_actor::behavior_type store(store_actor::stateful_pointer<store_state> self, persistence::environment* env,
                                 bool group_commit);

} // namespace svc::actors
