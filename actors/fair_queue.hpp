#pragma once
// The jobs waiting for an engine, kept by the job directory, served fairly
// between teams by start-time fair queuing on estimated engine seconds:
//   - each team has a finish tag F, the virtual time at which its last
//     dispatched job ends if the team got its weight's share;
//   - the next job is the head, among the teams under their cap, with the
//     smallest start tag S = max(V, F), where V is the start tag of the job
//     dispatched last; dispatching it sets F = S + cost / weight and V = S.
// So shares follow the weights in engine seconds, not in job counts (a 10 s
// video moves its team's tag ten times as far as a 1 s image), and a team
// that was idle starts at V: ahead of a backlogged team's tags, without a
// credit for the time it did not use. A team's jobs keep their order per
// model; a head whose model has no free engine is passed over, so it holds
// back neither its own team's other models nor other teams.
// Only ids and the little needed to choose are kept, as in a queue of
// 100,000 jobs that have no actors yet.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/clock.hpp"

namespace svc::actors {

/// One job as the queue knows it.
struct queued_job {
  std::string id;
  std::string team;
  std::string model;
  double cost = 1;  ///< estimated engine seconds (render_cost.hpp)
  core::time_point since{}; ///< when it was queued (its creation), for the queue wait metric
};

/// A team's claim on the engines (`svcctl team limits`).
struct team_share {
  double weight = 1;       ///< its share against others', > 0
  int max_concurrent = 0;  ///< renders at once; 0: no cap of its own
};

class fair_queue {
public:
  /// Queues `j` last among its team's jobs for its model; false (and nothing
  /// changes) when its id is queued already.
  bool push(queued_job j);

  /// Queues `j` first among its team's jobs for its model (a render that
  /// failed on its engine, a job resumed at start); false when queued already.
  bool push_front(queued_job j);

  /// Removes `id` wherever it is (its job ended while queued); whether it was queued.
  bool erase(const std::string& id);

  /// Whether `id` waits in the queue.
  bool contains(const std::string& id) const { return waiting_.count(id) != 0; }

  /// Jobs waiting.
  std::size_t size() const { return waiting_.size(); }

  /// The ids of the jobs waiting, in no order.
  std::vector<std::string> ids() const;

  /// Sets `team`'s weight and cap; false (nothing changes) for a weight that is not > 0 or a negative cap.
  bool set_share(const std::string& team, team_share share);
  team_share share_of(const std::string& team) const;

  /// Takes the next job, as the header says, among the heads whose model
  /// `runnable` allows; nothing when none may run now. The job counts as
  /// running for its team's cap until `finished`.
  std::optional<queued_job> pop(const std::function<bool(const std::string& model)>& runnable);

  /// A job `pop` gave ended (on its engine or not): its team may run another
  /// under its cap, and its tag is corrected by what the render really took
  /// (`actual` engine seconds against the `estimated` it was charged).
  void finished(const std::string& team, double estimated, double actual);

  /// Renders of `team` that `pop` gave and `finished` has not ended.
  int running(const std::string& team) const;

  /// Where a waiting job stands if nothing else arrived, every model could
  /// run and every team took its turn by the tags: the jobs that would go
  /// before it (0: it is next) and their estimated engine seconds.
  struct place {
    std::size_t ahead = 0;
    double seconds_ahead = 0;
  };
  /// Every waiting job's place, by id (one pass over the queue).
  std::unordered_map<std::string, place> places() const;

  /// Changes with every call that may move a place (push, pop, erase, finished, set_share).
  std::uint64_t version() const { return version_; }

private:
  struct entry {
    std::string id;
    double cost;
    std::uint64_t seq;  ///< admission order, across teams; a job pushed to the front takes a lower one
    core::time_point since;
  };
  struct team_state {
    double finish = 0;  ///< F, in virtual engine seconds
    int running = 0;
    std::map<std::string, std::deque<entry>> models;  ///< per model, in the team's order
  };
  struct where {
    std::string team;
    std::string model;
    std::uint64_t seq;
  };

  bool add(queued_job j, bool front);
  // The team's first live entry for `model`, dropping entries erased meanwhile.
  const entry* head(team_state& t, const std::string& model);
  void forget_if_idle(const std::string& team);

  std::unordered_map<std::string, team_state> teams_;  ///< teams with jobs waiting or running, or a tag ahead of V
  std::unordered_map<std::string, team_share> shares_; ///< only those set
  std::unordered_map<std::string, where> waiting_;
  double virtual_time_ = 0;  ///< V
  std::uint64_t version_ = 0;
  std::uint64_t next_back_ = 1ull << 62;
  std::uint64_t next_front_ = (1ull << 62) - 1;
};

} // namespace svc::actors
