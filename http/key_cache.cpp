#include "http/key_cache.hpp"

#include "persistence/shard_keys.hpp"

namespace svc::http {
namespace {

// Moves with every commit that writes a key, a key hash or a team.
uint64_t key_writes(const persistence::environment& env) {
  using persistence::table;
  return env.writes_to(table::api_keys) + env.writes_to(table::key_hashes) + env.writes_to(table::teams);
}

// The key id stored for a secret: under the shard the secret names, else
// (keys of a store upgraded from format 1) under the hash alone.
persistence::read_result<std::string> key_id_of(const persistence::tables& tables,
                                                std::optional<core::shard_id> secret_shard,
                                                const std::string& secret_sha256) {
  if (secret_shard) {
    auto id = tables.key_hashes.get(persistence::key_hash_key(*secret_shard, secret_sha256));
    if (!id.absent())
      return id;
  }
  return tables.key_hashes.get(secret_sha256);
}

} // namespace

persistence::read_result<std::shared_ptr<const key_entry>> key_cache::lookup(const persistence::environment& env,
                                                   const persistence::tables& tables,
                                                   std::optional<core::shard_id> secret_shard,
                                                   const std::string& secret_sha256) {
  auto seen = key_writes(env); // before reading: a later write makes the entry stale, never wrong
  {
    std::lock_guard<std::mutex> guard{mutex_};
    if (seen != writes_) {
      entries_.clear();
      writes_ = seen;
    } else if (auto it = entries_.find(secret_sha256); it != entries_.end()) {
      return it->second;
    }
  }
  using result = persistence::read_result<std::shared_ptr<const key_entry>>;
  auto key_id = key_id_of(tables, secret_shard, secret_sha256);
  if (!key_id.has_value())
    return key_id.failed() ? result::error(key_id.why()) : result::none();
  auto key = tables.api_keys.get(*key_id);
  if (!key.has_value())
    return key.failed() ? result::error(key.why()) : result::none();
  auto team = tables.teams.get(key->team_id);
  if (!team.has_value())
    return team.failed() ? result::error(team.why()) : result::none();
  auto entry = std::make_shared<const key_entry>(key_entry{std::move(*key), std::move(*team)});
  std::lock_guard<std::mutex> guard{mutex_};
  if (seen == writes_) {
    if (entries_.size() >= max_entries)
      entries_.clear();
    entries_.emplace(secret_sha256, entry);
  }
  return entry;
}

} // namespace svc::http
