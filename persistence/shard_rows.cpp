#include "persistence/shard_rows.hpp"

#include <array>
#include <functional>
#include <optional>
#include <string_view>

#include "persistence/shard_keys.hpp"
#include "persistence/value_codec.hpp"

namespace svc::persistence {
namespace {

// The tables a shard's rows are in: each team-owned table's range of the
// shard, then the `legacy_shards` rows that name the shard (a store upgraded
// from format 1 has them; the ids they name are found through them).
constexpr std::array<table, 25> walk_order{
  table::teams, table::balances, table::buckets, table::api_keys, table::api_keys_by_team, table::key_hashes,
  table::holds, table::jobs, table::jobs_by_team, table::live_jobs, table::idempotency, table::usage,
  table::expiries, table::webhook_endpoints, table::endpoints_by_team, table::events, table::events_by_team,
  table::pending_events, table::delivery_tasks, table::deliveries, table::delivered_events, table::files,
  table::files_by_team, table::credit_entries, table::legacy_shards};
// Not walked: meta, loras, lora_slugs, mail_queue, engines (store-wide, never moved).
static_assert(walk_order.size() + 5 == table_count, "every team-owned table is walked (shard_keys.cpp)");

// LMDB's key size limit (the default build).
constexpr std::size_t max_key_size = 511;

// Where a walk resumes: after `key` in `walk_order[step]`.
struct position {
  std::size_t step = 0;
  std::string key; ///< empty: from the table's first row
};

// A cursor is `<table name>/<key>` of the last row returned: readable in logs.
std::string cursor_of(const shard_row& row) { return std::string{table_name(row.from)} + "/" + row.key; }

std::optional<position> parse_cursor(std::string_view cursor) {
  if (cursor.empty())
    return position{};
  auto slash = cursor.find('/');
  if (slash == std::string_view::npos || slash + 1 == cursor.size())
    return std::nullopt;
  for (std::size_t step = 0; step < walk_order.size(); ++step)
    if (table_name(walk_order[step]) == cursor.substr(0, slash))
      return position{step, std::string{cursor.substr(slash + 1)}};
  return std::nullopt;
}

// One row of the shard, valid during its visit.
struct row_view {
  table from;
  std::string_view key, value;
};

// Whether the `legacy_shards` row `value` names `shard`.
bool names_shard(std::string_view value, core::shard_id shard) {
  auto named = decode_legacy_shard(value);
  return named && *named == shard;
}

// Visits the rows of `shard` from `start` in walk order, in one snapshot,
// until `visit` returns false.
status walk_shard(const tables& t, core::shard_id shard, const position& start,
                  const std::function<bool(const row_view&)>& visit) {
  return t.env.read([&](const snapshot& s) -> status {
    bool stopped = false;
    for (auto step = start.step; step < walk_order.size() && !stopped; ++step) {
      auto from = walk_order[step];
      scan_range range;
      range.shard = shard;
      if (step == start.step)
        range.start_after = start.key;
      auto scanned = s.scan(from, range, [&](std::string_view key, std::string_view value) {
        if (from == table::legacy_shards && !names_shard(value, shard))
          return true;
        if (!visit({from, key, value})) {
          stopped = true;
          return false;
        }
        return true;
      });
      if (!scanned.ok())
        return scanned;
    }
    return {};
  });
}

// The blobs a row owns: a succeeded job's outputs, an upload's bytes.
void add_blobs(const row_view& row, std::vector<std::string>& blobs) {
  if (row.from == table::files) {
    blobs.push_back(schema::file_blob_key(row.key));
    return;
  }
  if (row.from != table::jobs)
    return;
  auto job = decode_record<schema::job_record>(row.value);
  if (!job || job->status != schema::job_status::succeeded)
    return;
  for (std::size_t i = 0; i < job->outputs.size(); ++i)
    blobs.push_back(schema::output_blob_key(*job, i));
}

// Why `row` may not be written as a row of `shard`; empty when it may.
std::string refusal(const shard_row& row, core::shard_id shard) {
  auto index = static_cast<std::size_t>(row.from);
  if (index >= table_count)
    return "a row of table number " + std::to_string(index) + ", which does not exist";
  if (store_wide(row.from) && row.from != table::legacy_shards)
    return "a row of the store-wide table " + std::string{table_name(row.from)};
  if (row.key.empty() || row.key.size() + 1 > max_key_size) // +1: the shard byte it is stored behind
    return "a key of " + std::to_string(row.key.size()) + " bytes in " + std::string{table_name(row.from)};
  if (row.value.empty() || row.value[0] != format_version)
    return "a value without the format version byte under " + std::string{table_name(row.from)} + "/" + row.key;
  if (row.from == table::legacy_shards && !names_shard(row.value, shard))
    return "a legacy_shards row of another shard: " + row.key;
  return {};
}

// Adds to `batch` the put (value) or erasure (none) of `row`, in `shard`'s range.
void add_row(write_batch& batch, core::shard_id shard, table from, std::string key, std::optional<std::string> value) {
  if (from == table::legacy_shards)
    batch.ops.push_back({from, std::move(key), std::move(value), std::nullopt});
  else
    batch.ops.push_back({from, std::move(key), std::move(value), shard});
}

} // namespace

read_result<shard_rows_page> read_shard_rows(const tables& t, core::shard_id shard, const std::string& cursor,
                                             std::size_t max_bytes) {
  auto start = parse_cursor(cursor);
  if (!start)
    return read_result<shard_rows_page>::error("not a shard cursor: " + cursor);
  shard_rows_page page;
  std::size_t bytes = 0;
  auto st = walk_shard(t, shard, *start, [&](const row_view& row) {
    if (!page.rows.empty() && bytes >= max_bytes) {
      page.next = cursor_of(page.rows.back());
      return false;
    }
    page.rows.push_back({row.from, std::string{row.key}, std::string{row.value}});
    bytes += row.key.size() + row.value.size();
    add_blobs(row, page.blobs);
    return true;
  });
  if (!st.ok())
    return read_result<shard_rows_page>::error(st.message);
  return page;
}

bool put_shard_rows(write_batch& batch, core::shard_id shard, const std::vector<shard_row>& rows, std::string& why) {
  for (auto& row : rows)
    if (why = refusal(row, shard); !why.empty())
      return false;
  for (auto& row : rows)
    add_row(batch, shard, row.from, row.key, row.value);
  return true;
}

read_result<std::size_t> erase_shard_rows(const tables& t, core::shard_id shard, write_batch& batch,
                                          std::vector<std::string>& blobs) {
  // Gathered apart, so a walk that fails halfway adds nothing.
  write_batch erasures;
  std::vector<std::string> named;
  auto st = walk_shard(t, shard, {}, [&](const row_view& row) {
    add_row(erasures, shard, row.from, std::string{row.key}, std::nullopt);
    add_blobs(row, named);
    return true;
  });
  if (!st.ok())
    return read_result<std::size_t>::error(st.message);
  const auto erased = erasures.ops.size();
  batch.append(std::move(erasures));
  blobs.insert(blobs.end(), named.begin(), named.end());
  return erased;
}

void add_blobs_of(const shard_row& row, std::vector<std::string>& blobs) {
  add_blobs({row.from, row.key, row.value}, blobs);
}

} // namespace svc::persistence
