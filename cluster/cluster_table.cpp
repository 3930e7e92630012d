#include "cluster/cluster_table.hpp"

namespace svc::cluster {

std::shared_ptr<const actors::cluster_view> cluster_table::view() const {
  std::lock_guard lock{mutex_};
  return view_;
}

void cluster_table::publish(actors::cluster_view v) {
  auto next = std::make_shared<const actors::cluster_view>(std::move(v));
  std::lock_guard lock{mutex_};
  view_ = std::move(next);
  // A hand-over ends once the map says the same.
  for (auto it = handed_over_.begin(); it != handed_over_.end();) {
    if (view_->map.owners.size() == core::shard_count && view_->map.owners[it->first] == it->second)
      it = handed_over_.erase(it);
    else
      ++it;
  }
}

std::optional<std::string> cluster_table::owner_of(core::shard_id shard) const {
  std::lock_guard lock{mutex_};
  if (auto it = handed_over_.find(shard); it != handed_over_.end())
    return it->second;
  if (view_->map.owners.size() != core::shard_count)
    return std::nullopt;
  return view_->map.owners[shard];
}

bool cluster_table::holds(core::shard_id shard) const {
  auto owner = owner_of(shard);
  return owner && *owner == self_ && !frozen(shard);
}

void cluster_table::hand_over(core::shard_id shard, const std::string& node_id) {
  std::lock_guard lock{mutex_};
  handed_over_[shard] = node_id;
}

void cluster_table::forget_hand_over(core::shard_id shard) {
  std::lock_guard lock{mutex_};
  handed_over_.erase(shard);
}

std::optional<actors::node_info> cluster_table::member(const std::string& node_id) const {
  auto v = view();
  for (auto& n : v->nodes)
    if (n.id == node_id)
      return n;
  return std::nullopt;
}

} // namespace svc::cluster
