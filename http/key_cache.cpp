#include "http/key_cache.hpp"

namespace svc::http {
namespace {

// Moves with every commit that writes a key, a key hash or a team.
uint64_t key_writes(const persistence::environment& env) {
  using persistence::table;
  return env.writes_to(table::api_keys) + env.writes_to(table::key_hashes) + env.writes_to(table::teams);
}

} // namespace

persistence::read_result<std::shared_ptr<const key_entry>> key_cache::lookup(const persistence::environment& env,
                                                   const persistence::tables& tables,
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
  auto key_id = tables.key_hashes.get(secret_sha256);
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
