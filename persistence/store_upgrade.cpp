#include "persistence/store_upgrade.hpp"

#include "persistence/environment.hpp"
#include "persistence/lmdb_cursor.hpp"
#include "persistence/row_team.hpp"
#include "persistence/shard_keys.hpp"
#include "persistence/sharded_txn.hpp"

namespace svc::persistence {
namespace {

// The order tables are rewritten in: a row whose team is read from another
// table's record (an index row, a task, an expiry) comes before that table,
// so the record is still where format 1 keeps it.
constexpr std::array<table, 24> upgrade_order{
  table::key_hashes, table::live_jobs, table::pending_events, table::delivery_tasks, table::delivered_events,
  table::expiries, table::teams, table::balances, table::buckets, table::api_keys, table::api_keys_by_team,
  table::holds, table::jobs, table::jobs_by_team, table::idempotency, table::usage, table::webhook_endpoints,
  table::endpoints_by_team, table::events, table::events_by_team, table::deliveries, table::files,
  table::files_by_team, table::credit_entries};
// The rest are store-wide: meta, loras, lora_slugs, mail_queue, legacy_shards, engines.
static_assert(upgrade_order.size() + 6 == table_count, "every team-owned table is upgraded");

// Format 1's reads: keys as stored, with no shard.
class format_1_snapshot final : public snapshot {
public:
  format_1_snapshot(MDB_txn* txn, const std::array<MDB_dbi, table_count>& dbis) : txn_{txn}, dbis_{dbis} {}
  read_result<std::string> get(table t, std::string_view key) const override {
    return lmdb::get(txn_, dbis_[static_cast<std::size_t>(t)], key);
  }
  status scan(table t, const scan_range& range, const scan_visitor& visit) const override {
    lmdb::range_walk walk{txn_, dbis_[static_cast<std::size_t>(t)], range.prefix, range.start_after, range.reverse};
    return lmdb::visit_rows(walk, 0, visit);
  }

private:
  MDB_txn* txn_;
  const std::array<MDB_dbi, table_count>& dbis_;
};

std::string put(MDB_txn* txn, MDB_dbi dbi, std::string_view key, std::string_view value, unsigned flags,
                const char* what) {
  MDB_val k = lmdb::as_val(key), v = lmdb::as_val(value);
  int rc = mdb_put(txn, dbi, &k, &v, flags);
  return rc == MDB_SUCCESS ? std::string{} : lmdb::error(what, rc);
}

// Places every row of `t` in its team's shard: into `scratch` first (sorted
// as format 2 sorts), then back into the emptied table.
std::string upgrade_table(MDB_txn* txn, const std::array<MDB_dbi, table_count>& dbis, MDB_dbi scratch, table t,
                          upgrade_counts& counts) {
  const auto dbi = dbis[static_cast<std::size_t>(t)];
  const auto legacy_dbi = dbis[static_cast<std::size_t>(table::legacy_shards)];
  if (int rc = mdb_drop(txn, scratch, 0); rc != MDB_SUCCESS)
    return lmdb::error("emptying the scratch table", rc);
  format_1_snapshot format_1{txn, dbis};
  std::string failed;
  {
    lmdb::range_walk walk{txn, dbi, {}, {}, false};
    for (; walk.at_row() && failed.empty(); walk.next()) {
      auto team = team_of_row(format_1, t, walk.key(), walk.value());
      if (team.failed())
        return team.why();
      auto subject = subject_of_key(t, walk.key());
      auto named = named_shard(subject);
      auto shard = team.has_value() ? core::shard_of_team(*team) : named;
      if (!team.has_value())
        ++counts.teamless_rows;
      if (shard != named) {
        failed = put(txn, legacy_dbi, subject.text, encode_legacy_shard(shard), 0, "writing legacy_shards");
        ++counts.legacy_rows;
      }
      auto stored = sharded_txn::stored_key(shard, walk.key());
      if (stored.size() > lmdb::max_key_size)
        return "a key of " + std::to_string(walk.key().size()) + " bytes in " + std::string{table_name(t)}
               + " is too long to take its shard byte";
      if (failed.empty())
        failed = put(txn, scratch, stored, walk.value(), 0, "writing the scratch table");
      ++counts.rows;
    }
    if (walk.failed() != MDB_SUCCESS)
      return lmdb::error("reading format 1", walk.failed());
  }
  if (!failed.empty())
    return failed;
  if (int rc = mdb_drop(txn, dbi, 0); rc != MDB_SUCCESS)
    return lmdb::error(("emptying " + std::string{table_name(t)}).c_str(), rc);
  lmdb::range_walk placed{txn, scratch, {}, {}, false};
  for (; placed.at_row(); placed.next())
    if (auto why = put(txn, dbi, placed.key(), placed.value(), MDB_APPEND, "writing format 2"); !why.empty())
      return why;
  return placed.failed() == MDB_SUCCESS ? std::string{} : lmdb::error("reading the scratch table", placed.failed());
}

} // namespace

std::string upgrade_from_format_1(MDB_txn* txn, const std::array<MDB_dbi, table_count>& dbis, MDB_dbi scratch,
                                  upgrade_counts& counts) {
  for (auto t : upgrade_order)
    if (auto why = upgrade_table(txn, dbis, scratch, t, counts); !why.empty())
      return "upgrading " + std::string{table_name(t)} + ": " + why;
  if (int rc = mdb_drop(txn, scratch, 1); rc != MDB_SUCCESS)
    return lmdb::error("dropping the scratch table", rc);
  return {};
}

} // namespace svc::persistence
