#pragma once
// Typed views of one table: `record_table` (values are records of one kind)
// and `index_table` (values are ids: a secondary index).

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/log.hpp"
#include "persistence/environment.hpp"
#include "persistence/value_codec.hpp"

namespace svc::persistence {

/// Keys of `range` in order, up to `limit`; `more` tells if the range goes on.
inline read_result<std::vector<std::string>> scan_keys(const environment& env, table t, const scan_range& range,
                                                       std::size_t limit, bool& more) {
  std::vector<std::string> out;
  more = false;
  auto st = env.scan(t, range, [&](std::string_view k, std::string_view) {
    if (out.size() == limit) {
      more = true;
      return false;
    }
    out.emplace_back(k);
    return true;
  });
  if (!st.ok())
    return read_result<std::vector<std::string>>::error(st.message);
  return out;
}

template <class Record>
class record_table {
public:
  record_table(const environment& env, table t) : env_{env}, table_{t} {}

  /// The record under `key`, absent (also a value that does not decode:
  /// damage, logged, which scans skip too), or the store's error.
  read_result<Record> get(std::string_view key) const {
    auto raw = get_stored(key);
    if (!raw.has_value())
      return raw.failed() ? read_result<Record>::error(raw.why()) : read_result<Record>::none();
    if (auto r = decode(*raw))
      return std::move(*r);
    return read_result<Record>::none();
  }

  /// The bytes stored under `key` as they are, for a reader that keeps what
  /// it made of them (http/job_view_cache.hpp); absent, or the store's error.
  read_result<std::string> get_stored(std::string_view key) const { return env_.get(table_, key); }

  /// The record stored as `stored`; nullopt, logged, when it does not decode (damage).
  std::optional<Record> decode(std::string_view stored) const {
    auto r = decode_record<Record>(stored);
    if (!r)
      core::log_warn("persistence", "undecodable value in table " + std::string{table_name(table_)});
    return r;
  }

  /// Up to `limit` records of `range`, skipping damaged ones; `more` tells if the range goes on.
  read_result<std::vector<Record>> page(const scan_range& range, std::size_t limit, bool& more) const {
    std::vector<Record> out;
    more = false;
    auto st = env_.scan(table_, range, [&](std::string_view, std::string_view v) {
      if (out.size() == limit) {
        more = true;
        return false;
      }
      if (auto r = decode_record<Record>(v))
        out.push_back(std::move(*r));
      return true;
    });
    if (!st.ok())
      return read_result<std::vector<Record>>::error(st.message);
    return out;
  }

  /// Keys of `range` in order, up to `limit`; `more` tells if the range goes on.
  read_result<std::vector<std::string>> keys(const scan_range& range, std::size_t limit, bool& more) const {
    return scan_keys(env_, table_, range, limit, more);
  }

  /// Visits every decodable record in key order until `f` returns false.
  status for_each(const std::function<bool(const Record&)>& f) const { return for_each({}, f); }

  /// Visits the decodable records of `range` in its order until `f` returns false.
  status for_each(const scan_range& range, const std::function<bool(const Record&)>& f) const {
    return env_.scan(table_, range, [&](std::string_view, std::string_view v) {
      auto r = decode_record<Record>(v);
      return r ? f(*r) : true;
    });
  }

  /// Adds a put of `r` under `key` to `batch`.
  void put(write_batch& batch, std::string key, const Record& r) const {
    batch.put(table_, std::move(key), encode_record(r));
  }

  /// Adds a delete of `key` to `batch` (deleting an absent key is no error).
  void erase(write_batch& batch, std::string key) const { batch.erase(table_, std::move(key)); }

private:
  const environment& env_;
  table table_;
};

/// A table mapping a key to an id (a secondary index).
class index_table {
public:
  index_table(const environment& env, table t) : env_{env}, table_{t} {}

  /// The id stored under `key`, absent (also when undecodable), or the store's error.
  read_result<std::string> get(std::string_view key) const {
    auto raw = env_.get(table_, key);
    if (!raw.has_value())
      return raw;
    if (auto id = decode_text(*raw))
      return std::move(*id);
    core::log_warn("persistence", "undecodable value in table " + std::string{table_name(table_)});
    return read_result<std::string>::none();
  }

  /// Keys of `range` (e.g. `team/` prefix) in order, up to `limit`; `more` tells if it goes on.
  read_result<std::vector<std::string>> keys(const scan_range& range, std::size_t limit, bool& more) const {
    return scan_keys(env_, table_, range, limit, more);
  }

  /// Visits every key in order until `f` returns false.
  status for_each_key(const std::function<bool(std::string_view)>& f) const {
    return env_.scan(table_, {}, [&](std::string_view k, std::string_view) { return f(k); });
  }

  /// Adds a put of `key -> id` to `batch`.
  void put(write_batch& batch, std::string key, std::string_view id) const {
    batch.put(table_, std::move(key), encode_text(id));
  }

  /// Adds a delete of `key` to `batch` (deleting an absent key is no error).
  void erase(write_batch& batch, std::string key) const { batch.erase(table_, std::move(key)); }

private:
  const environment& env_;
  table table_;
};

} // namespace svc::persistence
