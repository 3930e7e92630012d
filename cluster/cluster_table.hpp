#pragma once
// The cluster as every thread of a node reads it: the latest view (members
// and shard map) that membership published. Read-mostly: readers take a
// snapshot pointer; membership replaces the whole view when etcd changes.

#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "actors/cluster_payloads.hpp"
#include "core/shard.hpp"

namespace svc::cluster {

class cluster_table {
public:
  explicit cluster_table(std::string self_id) : self_{std::move(self_id)} {}

  /// This node's id.
  const std::string& self() const { return self_; }
  /// The latest view (never null).
  std::shared_ptr<const actors::cluster_view> view() const;
  /// Replaces the view.
  void publish(actors::cluster_view v);

  /// The node that answers for `shard`: the one the map names, unless a move
  /// here says otherwise until the map agrees (see `hand_over`); nullopt
  /// while there is no map.
  std::optional<std::string> owner_of(core::shard_id shard) const;
  /// Whether this node holds `shard` and it is not frozen.
  bool holds(core::shard_id shard) const;

  // --- moving a shard (cluster/shard_mover.hpp)

  /// Whether `shard` is frozen here: its requests answer 503 until it thaws.
  bool frozen(core::shard_id shard) const { return frozen_[shard].load(); }
  void freeze(core::shard_id shard) { frozen_[shard] = true; }
  void thaw(core::shard_id shard) { frozen_[shard] = false; }
  /// From now on `node_id` answers for `shard`, whatever the map says, until
  /// a map names `node_id` for it: the old owner forwards stragglers to the
  /// new one, and the new one serves the shard before every view caught up.
  void hand_over(core::shard_id shard, const std::string& node_id);
  /// Drops what `hand_over` said of `shard` (a move that failed).
  void forget_hand_over(core::shard_id shard);

  /// Whether this node still has to erase its copy of `shard` (moved away, in its grace period).
  bool erasing(core::shard_id shard) const { return erasing_[shard].load(); }
  void set_erasing(core::shard_id shard, bool on) { erasing_[shard] = on; }

  /// Requests of `shard` running on this node, counted so a move waits for them.
  void begin_work(core::shard_id shard) const { ++working_[shard]; }
  void end_work(core::shard_id shard) const { --working_[shard]; }
  int64_t work_in_progress(core::shard_id shard) const { return working_[shard].load(); }
  /// Whether this node holds the team `team_id` (the shard of its id).
  bool holds_team(const std::string& team_id) const { return holds(core::shard_of_team(team_id)); }
  /// The member `node_id` while its lease lives; nullopt otherwise.
  std::optional<actors::node_info> member(const std::string& node_id) const;

private:
  std::string self_;
  mutable std::mutex mutex_;
  std::shared_ptr<const actors::cluster_view> view_ = std::make_shared<actors::cluster_view>();
  std::map<core::shard_id, std::string> handed_over_; ///< under mutex_
  std::array<std::atomic<bool>, core::shard_count> frozen_{};
  std::array<std::atomic<bool>, core::shard_count> erasing_{};
  mutable std::array<std::atomic<int64_t>, core::shard_count> working_{}; ///< a count, not the table's state
};

} // namespace svc::cluster
