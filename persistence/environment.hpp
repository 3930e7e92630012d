#pragma once
// The LMDB environment of one data directory. LMDB handles never leave this
// folder: callers see tables, keys and encoded values.
//
// Threads: every call is thread-safe. Reads run in their own short read-only
// transaction (lock-free, a consistent snapshot). `commit` is meant for one
// writer (the store actor); LMDB serialises writers anyway.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/config.hpp"
#include "core/shard.hpp"
#include "persistence/read_result.hpp"
#include "persistence/table_ids.hpp"
#include "persistence/write_batch.hpp"

namespace svc::persistence {

/// The outcome of an operation that can fail: empty message means success.
struct [[nodiscard]] status {
  std::string message;      ///< LMDB's or the OS's reason; empty when ok
  bool out_of_room = false; ///< the map or the disk is full: the same write may work once room is freed
  bool ok() const { return message.empty(); }
};

/// How full the store is (`svc_store_map_used_ratio`).
struct storage_use {
  uint64_t used_bytes = 0;    ///< what the newest snapshot needs (pages in use x page size)
  uint64_t map_bytes = 0;     ///< the map: `--map-size`, or the data file's size if that is larger
  uint64_t reserve_bytes = 0; ///< kept free for writes that do not grow the store (deletes)
  /// used / map, 0..1.
  double ratio() const {
    return map_bytes == 0 ? 0.0 : std::min(1.0, static_cast<double>(used_bytes) / static_cast<double>(map_bytes));
  }
};

/// Which keys a scan visits.
struct scan_range {
  std::string prefix;        ///< only keys starting with it
  std::string start_after;   ///< resume strictly after this key (cursor paging)
  bool reverse = false;      ///< newest (largest key) first
  /// Only rows of this shard (a team-owned table's one key range; ignored by
  /// store-wide tables). Unset: rows of every shard, in key order.
  std::optional<core::shard_id> shard = std::nullopt;
};

/// Receives one key and its raw value; returns false to stop the scan.
using scan_visitor = std::function<bool(std::string_view key, std::string_view value)>;

/// Reads of one consistent snapshot of every table: what `environment::read`
/// hands its function. Valid only during that call.
class snapshot {
public:
  virtual ~snapshot() = default;
  /// As `environment::get`, in this snapshot.
  virtual read_result<std::string> get(table t, std::string_view key) const = 0;
  /// As `environment::scan`, in this snapshot.
  virtual status scan(table t, const scan_range& range, const scan_visitor& visit) const = 0;
};

class environment {
public:
  /// Opens (creating if needed) `dir/data.mdb` with a map of `map_size` bytes
  /// (the most the store may hold; the file grows only as data does). nullptr
  /// and `error` set on failure, including a store of another format version
  /// (`meta/format_version`). A store of format 1 (keys without their shard)
  /// is upgraded to format 2 first, in one transaction (store_upgrade.hpp).
  static std::unique_ptr<environment> open(const std::string& dir, std::string& error,
                                           uint64_t map_size = core::default_map_size);

  ~environment();
  environment(const environment&) = delete;
  environment& operator=(const environment&) = delete;

  /// The raw value under `key`, absent, or the error that kept LMDB from
  /// saying (no reader slot, I/O, a damaged page).
  read_result<std::string> get(table t, std::string_view key) const;

  /// Visits keys of `range` in order (or reverse order) until the visitor
  /// says stop; an error ends the walk early and is returned.
  status scan(table t, const scan_range& range, const scan_visitor& visit) const;

  /// Runs `f` over one read transaction, so every read it makes sees the same
  /// commit (a walk that looks rows up in other tables); `f`'s status, or the
  /// error that kept the transaction from starting.
  status read(const std::function<status(const snapshot&)>& f) const;

  /// One small read: ok while the store answers reads (`/readyz`).
  status probe() const;

  /// The fault switch for tests (`POST /admin/faults` under
  /// `--fault-injection`): while on, every read fails as LMDB errors do.
  void fail_reads(bool on);

  /// The other fault switch for tests: every commit starts `delay` late (a
  /// slow disk; 0 turns it off). It delays the writer, so every later
  /// commit waits too, as behind a disk that is slow to sync.
  void delay_commits(std::chrono::milliseconds delay);

  /// Applies every change of `batch` in one transaction and syncs it to disk.
  /// A batch that would grow the store into its reserve, or into the room
  /// pledged to the work it holds open (map_room::pledged_pages), is refused,
  /// as is one LMDB or the disk has no room for (MDB_MAP_FULL, ENOSPC): both
  /// fail with `out_of_room` and change nothing. A batch that does not grow
  /// the store (deletes, rewrites of the same size) may use the reserve; one
  /// that finishes accepted work may use the pledged room and half the reserve.
  status commit(const write_batch& batch);

  /// How full the store is, as of the last commit (cheap: no LMDB call).
  storage_use usage() const;

  /// Copies the environment, compacted and fsynced, into `dir/data.mdb` (mode
  /// 0600). `dir` is created (mode 0700) when missing; an existing `dir` must
  /// be ours, closed to group and others, and must not hold a `data.mdb` yet.
  status backup(const std::string& dir) const;

  /// Number of entries in a table.
  std::size_t count(table t) const;

  /// How many commits (since open) have written to table `t`, however many of
  /// its records each touched. It moves after such a commit is visible to
  /// readers and before `commit` returns, so a record of `t` read after seeing
  /// N is current while the count is still N.
  uint64_t writes_to(table t) const;

private:
  struct impl;
  explicit environment(std::unique_ptr<impl> p);
  std::unique_ptr<impl> impl_;
};

} // namespace svc::persistence
