#pragma once
// Reading one of the caller's team's records by the id a client sent.

#include <string>
#include <string_view>

#include "core/ids.hpp"
#include "http/request_context.hpp"
#include "persistence/table_views.hpp"

namespace svc::http {

/// The record `id` of `table` if it has the shape of a `prefix` id and
/// belongs to the caller's team; absent otherwise (another team's record is
/// as unknown as a missing one); the store's error when it cannot say.
template <class Record>
persistence::read_result<Record> read_owned(const context_ptr& ctx, const persistence::record_table<Record>& table,
                                            const std::string& id, std::string_view prefix) {
  if (!core::has_id_shape(id, prefix))
    return persistence::read_result<Record>::none();
  return table.get(id).keep_if([&](const Record& r) { return r.team_id == ctx->team->id; });
}

} // namespace svc::http
