#include "http/cluster/cluster_table.hpp"

namespace svc::http {

std::shared_ptr<const actors::cluster_view> cluster_table::view() const {
  std::lock_guard lock{mutex_};
  return view_;
}

void cluster_table::publish(actors::cluster_view v) {
  auto next = std::make_shared<const actors::cluster_view>(std::move(v));
  std::lock_guard lock{mutex_};
  view_ = std::move(next);
}

std::optional<std::string> cluster_table::owner_of(core::shard_id shard) const {
  auto v = view();
  if (v->map.owners.size() != core::shard_count)
    return std::nullopt;
  return v->map.owners[shard];
}

bool cluster_table::holds(core::shard_id shard) const {
  auto owner = owner_of(shard);
  return owner && *owner == self_;
}

std::optional<actors::node_info> cluster_table::member(const std::string& node_id) const {
  auto v = view();
  for (auto& n : v->nodes)
    if (n.id == node_id)
      return n;
  return std::nullopt;
}

} // namespace svc::http
