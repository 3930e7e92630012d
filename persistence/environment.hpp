#pragma once
// The LMDB environment of one data directory. LMDB handles never leave this
// folder: callers see tables, keys and encoded values.
//
// Threads: every call is thread-safe. Reads run in their own short read-only
// transaction (lock-free, a consistent snapshot). `commit` is meant for one
// writer (the store actor); LMDB serialises writers anyway.

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "persistence/read_result.hpp"
#include "persistence/table.hpp"
#include "persistence/write_batch.hpp"

namespace svc::persistence {

/// The outcome of an operation that can fail: empty message means success.
struct [[nodiscard]] status {
  std::string message; ///< LMDB's or the OS's reason; empty when ok
  bool ok() const { return message.empty(); }
};

/// Which keys a scan visits.
struct scan_range {
  std::string prefix;        ///< only keys starting with it
  std::string start_after;   ///< resume strictly after this key (cursor paging)
  bool reverse = false;      ///< newest (largest key) first
};

/// Receives one key and its raw value; returns false to stop the scan.
using scan_visitor = std::function<bool(std::string_view key, std::string_view value)>;

class environment {
public:
  /// Opens (creating if needed) `dir/data.mdb`. nullptr and `error` set on failure,
  /// including a store of another format version (`meta/format_version`).
  static std::unique_ptr<environment> open(const std::string& dir, std::string& error);

  ~environment();
  environment(const environment&) = delete;
  environment& operator=(const environment&) = delete;

  /// The raw value under `key`, absent, or the error that kept LMDB from
  /// saying (no reader slot, I/O, a damaged page).
  read_result<std::string> get(table t, std::string_view key) const;

  /// Visits keys of `range` in order (or reverse order) until the visitor
  /// says stop; an error ends the walk early and is returned.
  status scan(table t, const scan_range& range, const scan_visitor& visit) const;

  /// One small read: ok while the store answers reads (`/readyz`).
  status probe() const;

  /// The fault switch for tests (`POST /admin/faults` under
  /// `--fault-injection`): while on, every read fails as LMDB errors do.
  void fail_reads(bool on);

  /// Applies every change of `batch` in one transaction and syncs it to disk.
  status commit(const write_batch& batch);

  /// Copies the environment, compacted and fsynced, into `dir/data.mdb` (mode
  /// 0600). `dir` is created (mode 0700) when missing; an existing `dir` must
  /// be closed to group and others, and must not hold a `data.mdb` yet.
  status backup(const std::string& dir) const;

  /// Number of entries in a table.
  std::size_t count(table t) const;

  /// Id of the last committed write transaction; it changes with every commit,
  /// so a value read after seeing id N is current while the id is still N.
  uint64_t last_commit_id() const;

private:
  struct impl;
  explicit environment(std::unique_ptr<impl> p);
  std::unique_ptr<impl> impl_;
};

} // namespace svc::persistence
