#include "cluster/vouched_keys.hpp"

namespace svc::cluster {
namespace {

std::string digest_of(std::string_view key) {
  auto d = core::sha256(key);
  return {reinterpret_cast<const char*>(d.data()), d.size()};
}

} // namespace

bool vouched_keys::vouched(std::string_view key, clock::time_point now) const {
  auto digest = digest_of(key);
  std::lock_guard lock{mutex_};
  auto it = until_.find(digest);
  return it != until_.end() && it->second > now;
}

void vouched_keys::answered(std::string_view key, bool authenticated, clock::time_point now) {
  auto digest = digest_of(key);
  std::lock_guard lock{mutex_};
  if (!authenticated) {
    until_.erase(digest);
    return;
  }
  if (until_.size() >= capacity_ && !until_.count(digest)) {
    for (auto it = until_.begin(); it != until_.end();)
      it = it->second <= now ? until_.erase(it) : std::next(it);
    if (until_.size() >= capacity_)
      until_.clear();
  }
  until_[digest] = now + ttl_;
}

} // namespace svc::cluster
