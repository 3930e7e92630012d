#include "http/key_cache.hpp"

namespace svc::http {

std::shared_ptr<const key_entry> key_cache::lookup(const persistence::environment& env,
                                                   const persistence::tables& tables,
                                                   const std::string& secret_sha256) {
  auto seen = env.last_commit_id(); // before reading: a later commit makes the entry stale, never wrong
  {
    std::lock_guard<std::mutex> guard{mutex_};
    if (seen != commit_id_) {
      entries_.clear();
      commit_id_ = seen;
    } else if (auto it = entries_.find(secret_sha256); it != entries_.end()) {
      return it->second;
    }
  }
  auto key_id = tables.key_hashes.get(secret_sha256);
  if (!key_id)
    return nullptr;
  auto key = tables.api_keys.get(*key_id);
  if (!key)
    return nullptr;
  auto team = tables.teams.get(key->team_id);
  if (!team)
    return nullptr;
  auto entry = std::make_shared<const key_entry>(key_entry{std::move(*key), std::move(*team)});
  std::lock_guard<std::mutex> guard{mutex_};
  if (seen == commit_id_) {
    if (entries_.size() >= max_entries)
      entries_.clear();
    entries_.emplace(secret_sha256, entry);
  }
  return entry;
}

} // namespace svc::http
