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
#include "persistence/table_views.hpp"

namespace svc::actors {

/// Up to `limit` keys of `table` after `after`; `more` tells if it goes on.
/// On a store error: logged under `component` ("`what` not all ... yet"),
/// the same batch asked for again a second later, and nothing returned.
template <class Self>
std::optional<std::vector<std::string>> recovery_batch(Self* self, const persistence::index_table& table,
                                                       const std::string& after, std::size_t limit, bool& more,
                                                       std::string_view component, std::string_view what) {
  persistence::scan_range range;
  range.start_after = after;
  auto keys = table.keys(range, limit, more);
  if (keys.failed()) {
    core::log_error(std::string{component},
                    std::string{what} + " not all recovered yet, the store failed: " + keys.why());
    self->delayed_send(self, std::chrono::seconds{1}, recover_atom::value, after);
    return std::nullopt;
  }
  return std::move(*keys);
}

/// Asks `self` for the batch after `keys` when there is one; whether it did.
template <class Self>
bool continue_recovery(Self* self, const std::vector<std::string>& keys, bool more) {
  if (!more || keys.empty())
    return false;
  self->send(self, recover_atom::value, keys.back());
  return true;
}

} // namespace svc::actors
