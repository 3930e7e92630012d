#include "cluster/node_identities.hpp"

namespace svc::cluster {

bool node_identities::bind(const caf::node_id& caf_node, const std::string& node_id, uint64_t connection) {
  std::lock_guard lock{mutex_};
  auto [it, fresh] = bound_.try_emplace(caf_node, binding{node_id, connection});
  return fresh || it->second.connection == connection;
}

void node_identities::release(uint64_t connection) {
  std::lock_guard lock{mutex_};
  for (auto it = bound_.begin(); it != bound_.end();)
    it = it->second.connection == connection ? bound_.erase(it) : std::next(it);
}

std::optional<std::string> node_identities::node_of(const caf::node_id& caf_node) const {
  std::lock_guard lock{mutex_};
  auto it = bound_.find(caf_node);
  if (it == bound_.end())
    return std::nullopt;
  return it->second.node_id;
}

} // namespace svc::cluster
