#include "persistence/lmdb_cursor.hpp"

namespace svc::persistence::lmdb {

range_walk::range_walk(MDB_txn* txn, MDB_dbi dbi, std::string prefix, const std::string& after, bool reverse)
  : cursor_{txn, dbi}, prefix_{std::move(prefix)}, reverse_{reverse}, rc_{cursor_.rc} {
  if (!cursor_.cur)
    return;
  if (!reverse_) {
    const std::string& start = after.empty() ? prefix_ : after;
    key_ = as_val(start);
    rc_ = mdb_cursor_get(cursor_.cur, &key_, &value_, start.empty() ? MDB_FIRST : MDB_SET_RANGE);
    if (rc_ == MDB_SUCCESS && !after.empty() && as_view(key_) == after)
      rc_ = mdb_cursor_get(cursor_.cur, &key_, &value_, MDB_NEXT);
    settle();
    return;
  }
  // Reverse: position on the last key below the bound, then walk backwards.
  std::string bound = after;
  if (bound.empty() && !prefix_.empty()) {
    bound = prefix_;
    bound.push_back('\xff'); // past every key with this prefix: stored keys are text after the prefix
  }
  if (bound.empty()) {
    rc_ = mdb_cursor_get(cursor_.cur, &key_, &value_, MDB_LAST);
  } else {
    key_ = as_val(bound);
    rc_ = mdb_cursor_get(cursor_.cur, &key_, &value_, MDB_SET_RANGE);
    if (rc_ == MDB_SUCCESS)
      rc_ = mdb_cursor_get(cursor_.cur, &key_, &value_, MDB_PREV);
    else if (rc_ == MDB_NOTFOUND) // every key is below the bound
      rc_ = mdb_cursor_get(cursor_.cur, &key_, &value_, MDB_LAST);
  }
  settle();
}

void range_walk::next() {
  if (rc_ != MDB_SUCCESS)
    return;
  rc_ = mdb_cursor_get(cursor_.cur, &key_, &value_, reverse_ ? MDB_PREV : MDB_NEXT);
  settle();
}

void range_walk::settle() {
  if (rc_ == MDB_SUCCESS && as_view(key_).substr(0, prefix_.size()) != prefix_)
    rc_ = MDB_NOTFOUND;
}

read_result<std::string> get(MDB_txn* txn, MDB_dbi dbi, std::string_view key) {
  if (key.empty() || key.size() > max_key_size)
    return read_result<std::string>::none();
  MDB_val k = as_val(key), v{};
  int rc = mdb_get(txn, dbi, &k, &v);
  if (rc == MDB_NOTFOUND)
    return read_result<std::string>::none();
  if (rc != MDB_SUCCESS)
    return read_result<std::string>::error(error("mdb_get", rc));
  return std::string{as_view(v)};
}

status visit_rows(range_walk& walk, std::size_t strip, const scan_visitor& visit) {
  for (; walk.at_row(); walk.next())
    if (!visit(walk.key().substr(strip), walk.value()))
      return {};
  return walk.failed() == MDB_SUCCESS ? status{} : status{error("mdb_cursor_get", walk.failed())};
}

} // namespace svc::persistence::lmdb
