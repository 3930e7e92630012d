#pragma once
// A set of puts and deletes that commit together in one LMDB transaction.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "persistence/table_ids.hpp"
#include "core/described.hpp"
#include "core/shard.hpp"

namespace svc::persistence {

/// One change: a put of `value` under `key`, or a delete when `value` is empty.
struct write_op {
  table tbl;
  std::string key;
  std::optional<std::string> value; ///< encoded bytes; nullopt deletes
  /// The shard whose key range of a team-owned table the row is in, when
  /// given rather than told by its key (shard_keys.hpp): a moved row.
  std::optional<core::shard_id> shard = std::nullopt;
};
SVC_DESCRIBE(write_op, (tbl, key, value, shard))

/// Changes to commit atomically. Cheap to move; copyable for messaging.
struct write_batch {
  std::vector<write_op> ops;
  /// The batch finishes work the store already accepted (a job's progress
  /// and its settlement, an event's fan-out, a delivery's attempts): it may
  /// grow into the room new work leaves pledged to open work and into half
  /// of the map's reserve, so a full store still lets accepted work end.
  bool finishes_accepted_work = false;

  /// Stores `encoded` (see value_codec.hpp) under `key`.
  void put(table t, std::string key, std::string encoded) {
    ops.push_back({t, std::move(key), std::move(encoded), std::nullopt});
  }
  /// Deletes `key` (no error if absent).
  void erase(table t, std::string key) { ops.push_back({t, std::move(key), std::nullopt, std::nullopt}); }
  /// Stores `encoded` under `key` in the range of `shard` (a team-owned table):
  /// a row of a shard that moves here.
  void put_in_shard(table t, core::shard_id shard, std::string key, std::string encoded) {
    ops.push_back({t, std::move(key), std::move(encoded), shard});
  }
  /// Deletes `key` from the range of `shard`: a row of a shard that moved away.
  void erase_in_shard(table t, core::shard_id shard, std::string key) {
    ops.push_back({t, std::move(key), std::nullopt, shard});
  }
  /// Appends every change of `other`, after this batch's own. The whole
  /// finishes accepted work only if every part of it does.
  void append(write_batch other) {
    finishes_accepted_work = (ops.empty() || finishes_accepted_work) && other.finishes_accepted_work;
    for (auto& op : other.ops)
      ops.push_back(std::move(op));
  }
  bool empty() const { return ops.empty(); }
};
SVC_DESCRIBE(write_batch, (ops, finishes_accepted_work))

} // namespace svc::persistence
