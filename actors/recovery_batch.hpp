#pragma once
// Recovery at start in batches: a directory reads the next keys of an index
// table (`live_jobs`, `pending_events`) in one read transaction, handles
// them, and sends itself `recover_atom` with the last key for the next
// batch, so the messages that arrived meanwhile are answered in between.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "actors/messages.hpp"
#include "core/log.hpp"
#include "core/shard.hpp"
#include "persistence/table_views.hpp"

namespace svc::actors {

/// One batch of keys to recover.
struct recovery_keys {
  std::vector<std::string> keys;
  bool more = false; ///< the table goes on after the last key
};

/// Up to `limit` keys of `table` after `after`. On a store error: logged
/// under `component` ("`what` not all ... yet"), the same batch asked for
/// again a second later, and nothing returned.
template <class Self>
std::optional<recovery_keys> recovery_batch(Self* self, const persistence::index_table& table, const std::string& after,
                                            std::size_t limit, std::string_view component, std::string_view what) {
  persistence::scan_range range;
  range.start_after = after;
  recovery_keys batch;
  auto keys = table.keys(range, limit, batch.more);
  if (keys.failed()) {
    core::log_error(std::string{component},
                    std::string{what} + " not all recovered yet, the store failed: " + keys.why());
    self->delayed_send(self, std::chrono::seconds{1}, recover_atom::value, after);
    return std::nullopt;
  }
  batch.keys = std::move(*keys);
  return batch;
}

/// Hands every key of `shard`'s range of `table` to `handle`, up to `limit`
/// of them (one read transaction) at a time: an adoption reads its shard at
/// once. The store's failure (after the batches read before it), if any.
template <class Handle>
std::optional<std::string> each_key_batch(const persistence::index_table& table, core::shard_id shard,
                                          std::size_t limit, Handle handle) {
  persistence::scan_range range;
  range.shard = shard;
  for (bool more = true; more;) {
    auto keys = table.keys(range, limit, more);
    if (keys.failed())
      return keys.why();
    if (keys->empty())
      break;
    handle(*keys);
    range.start_after = keys->back();
  }
  return std::nullopt;
}

/// Asks `self` for the batch after `batch` when there is one; whether it did.
template <class Self>
bool continue_recovery(Self* self, const recovery_keys& batch) {
  if (!batch.more || batch.keys.empty())
    return false;
  self->send(self, recover_atom::value, batch.keys.back());
  return true;
}

} // namespace svc::actors
