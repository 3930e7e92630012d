#pragma once
// The keys callers use, inside one LMDB transaction: each read and write of a
// team-owned table goes to the key range of the row's shard (shard_keys.hpp).
// Used by `environment` only (LMDB handles never leave this folder).

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include <lmdb.h>

#include "persistence/environment.hpp"

namespace svc::persistence {

class sharded_txn {
public:
  /// `consult_legacy`: whether `legacy_shards` may hold rows (it is read only then).
  sharded_txn(MDB_txn* txn, const std::array<MDB_dbi, table_count>& dbis, bool consult_legacy)
    : txn_{txn}, dbis_{dbis}, consult_legacy_{consult_legacy} {}

  /// As `environment::get`.
  read_result<std::string> get(table t, std::string_view key) const;

  /// As `environment::scan`. A scan that no prefix pins to one shard (nor
  /// `range.shard`) walks every shard's range at once, merged into key order.
  status scan(table t, const scan_range& range, const scan_visitor& visit) const;

  /// The shard a write of `key` in the team-owned table `t` goes to: the one
  /// `legacy_shards` maps its subject to, else the one its key names.
  read_result<core::shard_id> shard_for_write(table t, std::string_view key) const;

  /// `key` as stored in a team-owned table's range of `shard`.
  static std::string stored_key(core::shard_id shard, std::string_view key);

private:
  MDB_dbi dbi(table t) const { return dbis_[static_cast<std::size_t>(t)]; }
  read_result<std::string> get_stored(table t, std::string_view stored) const;
  /// The shard `legacy_shards` maps `subject` to; absent when it maps none.
  read_result<core::shard_id> legacy_shard(std::string_view subject) const;
  status walk_one(table t, const std::string& prefix, const std::string& after, bool reverse,
                  std::size_t strip, const scan_visitor& visit) const;
  status walk_merged(table t, const scan_range& range, const scan_visitor& visit) const;

  MDB_txn* txn_;
  const std::array<MDB_dbi, table_count>& dbis_;
  bool consult_legacy_;
};

} // namespace svc::persistence
