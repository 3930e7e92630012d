#include "http/services.hpp"

namespace svc::http {

actors::bucket_actor team_bucket_cache::find(const std::string& team_id) const {
  std::lock_guard<std::mutex> guard{entries_->mutex};
  auto it = entries_->map.find(team_id);
  return it != entries_->map.end() ? it->second : actors::bucket_actor{};
}

void team_bucket_cache::put(const std::string& team_id, actors::bucket_actor h) {
  {
    std::lock_guard<std::mutex> guard{entries_->mutex};
    if (!entries_->map.emplace(team_id, h).second)
      return;
  }
  // Runs on the bucket's exit (at once if it is gone already).
  std::weak_ptr<entries> weak = entries_;
  caf::actor_cast<caf::abstract_actor*>(h)->attach_functor([weak, team_id, addr = h.address()] {
    auto e = weak.lock();
    if (!e)
      return;
    std::lock_guard<std::mutex> guard{e->mutex};
    if (auto it = e->map.find(team_id); it != e->map.end() && it->second.address() == addr)
      e->map.erase(it);
  });
}

} // namespace svc::http
