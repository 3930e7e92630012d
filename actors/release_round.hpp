#pragma once
// How a directory answers `release` for a shard: it tells each child of the
// shard's teams to stop (each saves what only memory holds first) and answers
// with their number once every one of them is gone, as its down handler
// learns. Children are monitored by their directory (supervision.hpp), so a
// child that dies instead still ends the round.

#include <cstdint>
#include <list>
#include <set>

#include <caf/all.hpp>

#include "actors/messages.hpp"
#include "core/log.hpp"
#include "core/shard.hpp"

namespace svc::actors {

/// One `release` waiting for the children it stopped.
struct release_round {
  caf::typed_response_promise<int64_t> promise;
  std::set<caf::actor_addr> waiting;
  int64_t stopped = 0;
};

/// The releases of a directory still waiting.
class release_rounds {
public:
  /// Answers at once when `children` is empty, else once each is gone.
  template <class Self>
  caf::result<int64_t> begin(Self* self, std::set<caf::actor_addr> children) {
    if (children.empty())
      return int64_t{0};
    release_round r;
    r.promise = self->template make_response_promise<int64_t>();
    r.stopped = static_cast<int64_t>(children.size());
    r.waiting = std::move(children);
    rounds_.push_back(std::move(r));
    return rounds_.back().promise;
  }

  /// A child is gone (call from the down handler); answers the rounds it completes.
  void gone(const caf::actor_addr& child) {
    for (auto it = rounds_.begin(); it != rounds_.end();) {
      if (it->waiting.erase(child) && it->waiting.empty()) {
        it->promise.deliver(it->stopped);
        it = rounds_.erase(it);
      } else {
        ++it;
      }
    }
  }

  /// Whether `child` was told to stop by a release (its exit is no death).
  bool releasing(const caf::actor_addr& child) const {
    for (auto& r : rounds_)
      if (r.waiting.count(child))
        return true;
    return false;
  }

private:
  std::list<release_round> rounds_;
};

/// Tells the children of `by_team` (team id -> handle) whose team is in
/// `shard` to release, and drops them from it; their addresses.
template <class Self, class Map>
std::set<caf::actor_addr> release_team_children(Self* self, Map& by_team, core::shard_id shard) {
  std::set<caf::actor_addr> told;
  for (auto it = by_team.begin(); it != by_team.end();) {
    if (core::shard_of_team(it->first) != shard) {
      ++it;
      continue;
    }
    self->send(it->second, release_atom::value);
    told.insert(it->second.address());
    it = by_team.erase(it);
  }
  return told;
}

/// How a released child saves and exits: commits `batch` (empty: a round trip
/// behind the commits it sent before, which the store answers first), then
/// exits, so its requesters get their answers and nothing it wrote is left
/// on the way. A failed commit is logged; the child exits all the same.
template <class Self>
void quit_after_commit(Self* self, const store_actor& store, persistence::write_batch batch, std::string component) {
  self->request(store, caf::infinite, commit_atom::value, std::move(batch))
    .then([self](bool) { self->quit(); },
          [self, component](caf::error& err) {
            core::log_warn(component, "released with its last commit failed: " + caf::to_string(err));
            self->quit();
          });
}

} // namespace svc::actors
