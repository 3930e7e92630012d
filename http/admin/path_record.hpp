#pragma once
// The record an admin route's {id} names, of any team: read once, and
// answered 404 (unknown or malformed id) or 503 (store failure) when absent.

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string_view>

#include "core/ids.hpp"
#include "http/respond.hpp"
#include "persistence/table_views.hpp"

namespace svc::http {

/// The record of `table` under the path's `{id}` when it has one of the id
/// `prefixes`; nullopt after answering 404 `resource_not_found` (naming
/// `kind`) or 503.
template <class Record>
std::optional<Record> path_record(const context_ptr& ctx, const persistence::record_table<Record>& table,
                                  std::initializer_list<std::string_view> prefixes, std::string_view kind) {
  auto& id = ctx->param("id");
  auto shaped = std::any_of(prefixes.begin(), prefixes.end(), [&](auto p) { return core::has_id_shape(id, p); });
  auto found = shaped ? table.get(id) : persistence::read_result<Record>::none();
  if (found.failed()) {
    reply_storage_failure(ctx, found.why());
    return std::nullopt;
  }
  if (!found.has_value()) {
    reply_error(ctx, schema::make_api_error(schema::error_code::resource_not_found,
                                            {{"kind", std::string{kind}}, {"id", id.substr(0, 64)}}, "id"));
    return std::nullopt;
  }
  return std::move(*found);
}

} // namespace svc::http
