#pragma once
// The cluster as every thread of a node reads it: the latest view (members
// and shard map) that membership published. Read-mostly: readers take a
// snapshot pointer; membership replaces the whole view when etcd changes.

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "actors/payloads.hpp"
#include "core/shard.hpp"

namespace svc::http {

class cluster_table {
public:
  explicit cluster_table(std::string self_id) : self_{std::move(self_id)} {}

  /// This node's id.
  const std::string& self() const { return self_; }
  /// The latest view (never null).
  std::shared_ptr<const actors::cluster_view> view() const;
  /// Replaces the view.
  void publish(actors::cluster_view v);

  /// The id of the node the map names for `shard`; nullopt while there is no map.
  std::optional<std::string> owner_of(core::shard_id shard) const;
  /// Whether this node holds `shard`.
  bool holds(core::shard_id shard) const;
  /// Whether this node holds the team `team_id` (the shard of its id).
  bool holds_team(const std::string& team_id) const { return holds(core::shard_of_team(team_id)); }
  /// The member `node_id` while its lease lives; nullopt otherwise.
  std::optional<actors::node_info> member(const std::string& node_id) const;

private:
  std::string self_;
  mutable std::mutex mutex_;
  std::shared_ptr<const actors::cluster_view> view_ = std::make_shared<actors::cluster_view>();
};

} // namespace svc::http
