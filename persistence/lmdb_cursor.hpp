#pragma once
// LMDB plumbing shared by the files of this folder (LMDB handles never leave
// it): value conversions, a cursor that closes, a read of one key and an
// ordered walk of one key range, both of keys as stored.

#include <string>
#include <string_view>

#include <lmdb.h>

#include "persistence/environment.hpp"

namespace svc::persistence::lmdb {

inline MDB_val as_val(std::string_view s) { return {s.size(), const_cast<char*>(s.data())}; }

inline std::string_view as_view(const MDB_val& v) { return {static_cast<const char*>(v.mv_data), v.mv_size}; }

inline std::string error(const char* what, int rc) { return std::string{what} + ": " + mdb_strerror(rc); }

/// LMDB's key size limit (the default build).
inline constexpr std::size_t max_key_size = 511;

/// A cursor that always closes.
struct cursor {
  MDB_cursor* cur = nullptr;
  int rc;
  cursor(MDB_txn* txn, MDB_dbi dbi) : rc{mdb_cursor_open(txn, dbi, &cur)} {
    if (rc != MDB_SUCCESS)
      cur = nullptr;
  }
  ~cursor() {
    if (cur)
      mdb_cursor_close(cur);
  }
  cursor(const cursor&) = delete;
  cursor& operator=(const cursor&) = delete;
};

/// The keys of one table that start with `prefix`, in order or reverse order,
/// strictly after `after` when it is not empty (all as stored).
class range_walk {
public:
  range_walk(MDB_txn* txn, MDB_dbi dbi, std::string prefix, const std::string& after, bool reverse);

  /// At a row of the range; false at its end or after an error (`failed`).
  bool at_row() const { return rc_ == MDB_SUCCESS; }
  /// LMDB's error that ended the walk; MDB_SUCCESS when none did.
  int failed() const { return rc_ == MDB_SUCCESS || rc_ == MDB_NOTFOUND ? MDB_SUCCESS : rc_; }
  std::string_view key() const { return as_view(key_); }
  std::string_view value() const { return as_view(value_); }
  void next();

private:
  void settle(); // ends the walk once the cursor left the range
  cursor cursor_;
  std::string prefix_;
  bool reverse_;
  int rc_;
  MDB_val key_{}, value_{};
};

/// The value stored under `key` in `dbi` (absent for an empty key or one
/// past LMDB's limit: such keys never exist), or LMDB's error.
read_result<std::string> get(MDB_txn* txn, MDB_dbi dbi, std::string_view key);

/// Hands each row of `walk` to `visit`, its key without the first `strip`
/// bytes, until the walk ends or `visit` returns false; LMDB's error, if one ended it.
status visit_rows(range_walk& walk, std::size_t strip, const scan_visitor& visit);

} // namespace svc::persistence::lmdb
