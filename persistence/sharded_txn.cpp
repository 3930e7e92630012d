#include "persistence/sharded_txn.hpp"

#include <memory>
#include <queue>
#include <vector>

#include "persistence/lmdb_cursor.hpp"
#include "persistence/shard_keys.hpp"

namespace svc::persistence {
namespace {

status walk_error(int rc) { return {lmdb::error("mdb_cursor_get", rc)}; }

} // namespace

std::string sharded_txn::stored_key(core::shard_id shard, std::string_view key) {
  std::string stored(1, static_cast<char>(shard));
  stored.append(key);
  return stored;
}

read_result<std::string> sharded_txn::get_stored(table t, std::string_view stored) const {
  return lmdb::get(txn_, dbi(t), stored);
}

read_result<core::shard_id> sharded_txn::legacy_shard(std::string_view subject) const {
  auto stored = get_stored(table::legacy_shards, subject);
  if (!stored.has_value())
    return stored.failed() ? read_result<core::shard_id>::error(stored.why()) : read_result<core::shard_id>::none();
  if (auto shard = decode_legacy_shard(*stored))
    return *shard;
  return read_result<core::shard_id>::none(); // damaged: the id is taken at its word
}

read_result<std::string> sharded_txn::get(table t, std::string_view key) const {
  if (key.empty())
    return read_result<std::string>::none();
  if (store_wide(t))
    return get_stored(t, key);
  auto subject = subject_of_key(t, key);
  auto named = named_shard(subject);
  // The shard the key names first: only ids minted before sharding live elsewhere.
  auto found = get_stored(t, stored_key(named, key));
  if (!found.absent() || subject.is_team || !consult_legacy_)
    return found;
  auto legacy = legacy_shard(subject.text);
  if (!legacy.has_value())
    return legacy.failed() ? read_result<std::string>::error(legacy.why()) : read_result<std::string>::none();
  return *legacy == named ? read_result<std::string>::none() : get_stored(t, stored_key(*legacy, key));
}

read_result<core::shard_id> sharded_txn::shard_for_write(table t, std::string_view key) const {
  auto subject = subject_of_key(t, key);
  if (subject.is_team || !consult_legacy_)
    return named_shard(subject);
  auto legacy = legacy_shard(subject.text);
  if (legacy.failed())
    return legacy;
  return legacy.has_value() ? *legacy : named_shard(subject);
}

status sharded_txn::walk_one(table t, const std::string& prefix, const std::string& after, bool reverse,
                             std::size_t strip, const scan_visitor& visit) const {
  lmdb::range_walk walk{txn_, dbi(t), prefix, after, reverse};
  return lmdb::visit_rows(walk, strip, visit);
}

status sharded_txn::walk_merged(table t, const scan_range& range, const scan_visitor& visit) const {
  std::vector<std::unique_ptr<lmdb::range_walk>> walks;
  walks.reserve(core::shard_count);
  for (std::size_t shard = 0; shard < core::shard_count; ++shard) {
    auto id = static_cast<core::shard_id>(shard);
    auto after = range.start_after.empty() ? std::string{} : stored_key(id, range.start_after);
    walks.push_back(std::make_unique<lmdb::range_walk>(txn_, dbi(t), stored_key(id, range.prefix), after, range.reverse));
    if (auto rc = walks.back()->failed(); rc != MDB_SUCCESS)
      return walk_error(rc);
  }
  // The walk whose key comes next on top; keys without their shard byte.
  auto comes_later = [&](std::size_t a, std::size_t b) {
    auto ka = walks[a]->key().substr(1), kb = walks[b]->key().substr(1);
    return range.reverse ? ka < kb : ka > kb;
  };
  std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(comes_later)> next{comes_later};
  for (std::size_t i = 0; i < walks.size(); ++i)
    if (walks[i]->at_row())
      next.push(i);
  while (!next.empty()) {
    auto i = next.top();
    next.pop();
    auto& walk = *walks[i];
    if (!visit(walk.key().substr(1), walk.value()))
      return {};
    walk.next();
    if (walk.at_row())
      next.push(i);
    else if (walk.failed() != MDB_SUCCESS)
      return walk_error(walk.failed());
  }
  return {};
}

status sharded_txn::scan(table t, const scan_range& range, const scan_visitor& visit) const {
  if (store_wide(t))
    return walk_one(t, range.prefix, range.start_after, range.reverse, 0, visit);
  std::optional<core::shard_id> shard = range.shard;
  if (!shard && subject_of_prefix(t, range.prefix)) {
    auto placed = shard_for_write(t, range.prefix); // every key under the prefix was written there
    if (placed.failed())
      return {placed.why()};
    shard = *placed;
  }
  if (!shard)
    return walk_merged(t, range, visit);
  auto after = range.start_after.empty() ? std::string{} : stored_key(*shard, range.start_after);
  return walk_one(t, stored_key(*shard, range.prefix), after, range.reverse, 1, visit);
}

} // namespace svc::persistence
