#pragma once
// List paging parameters shared by every list route: `limit` 1..100
// (default 20, never clamped) and `starting_after` (an id of the list's kind).

#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/array.hpp>
#include <boost/json/value.hpp>

#include "http/request_context.hpp"
#include "http/respond.hpp"
#include "persistence/table_views.hpp"
#include "schema/views.hpp"

namespace svc::http {

struct list_params {
  std::size_t limit = 20;
  std::string starting_after; ///< empty: from the newest
  std::map<std::string, std::string> filters; ///< the list's own parameters (`status`), as given
};

/// Reads the paging parameters and the list's `filters` (rejecting any other
/// query parameter); nullopt after answering 400 `invalid_parameter` /
/// `unknown_parameter`.
std::optional<list_params> read_list_params(const context_ptr& ctx, std::string_view id_prefix,
                                            std::initializer_list<std::string_view> filters = {});

/// The wire form of one listed item; absent to skip it (gone since the index
/// was read, expired, or filtered out); an error when the store failed.
using list_item = std::function<persistence::read_result<boost::json::value>(std::string_view id)>;

/// One page of the caller's team's list behind `index` (keys
/// `team_id/<id_prefix>_<ULID>`), newest first, after the cursor: the list
/// envelope. Index pages are read until `limit` items are found (one more
/// tells `has_more`), the index ends, or `--list-scan-limit` records were
/// examined: a filter that matches rarely must not make one request decode a
/// whole team's history on the asio thread. A page that stops at that bound
/// has `has_more` and a `next_cursor` naming the last record examined (listed
/// or not), so following cursors still visits every match once; such a page
/// may hold fewer than `limit` items, even none.
/// Answers 200 with the page, or 503 `storage_unavailable` when a read failed.
void reply_team_list(const context_ptr& ctx, const persistence::index_table& index, std::string_view id_prefix,
                     const list_params& params, const list_item& item);

/// The same over `team_id`'s list: for the admin routes, which act for no team of their own.
void reply_team_list(const context_ptr& ctx, const std::string& team_id, const persistence::index_table& index,
                     std::string_view id_prefix, const list_params& params, const list_item& item);

/// One page of `table`'s `range` (up to `limit` records, in the range's
/// order, damaged ones skipped), each record shown by `view`: the list
/// envelope, or 503 `storage_unavailable` when the read failed.
template <class Record, class View>
void reply_record_page(const context_ptr& ctx, const persistence::record_table<Record>& table,
                       const persistence::scan_range& range, std::size_t limit, View view) {
  bool more = false;
  auto records = table.page(range, limit, more);
  if (records.failed())
    return reply_storage_failure(ctx, records.why());
  boost::json::array data;
  for (auto& r : *records)
    data.push_back(view(r));
  reply_json(ctx, 200, schema::list_view(std::move(data), more));
}

} // namespace svc::http
