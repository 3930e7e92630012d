#pragma once
// The queue of jobs waiting for a worker, kept by the job directory: only
// their ids, in the order workers take them (admission order; at start,
// `live_jobs` order). A queued job needs no actor until a worker slot is
// free for it, so a queue of 100,000 jobs costs their ids, not 100,000
// actors and copies of their requests.

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace svc::actors {

class job_queue {
public:
  /// Queues `id` last; false (and nothing changes) when it is queued already.
  bool push(const std::string& id);

  /// Queues `id` first (a dispatch that has to wait); false when it is queued already.
  bool push_front(const std::string& id);

  /// Whether `id` waits in the queue.
  bool contains(const std::string& id) const { return waiting_.count(id) != 0; }

  /// Removes `id` wherever it is (its job ended while queued); whether it was queued.
  bool erase(const std::string& id);

  /// Takes the first job out of the queue; nothing when none waits.
  std::optional<std::string> pop();

  /// Jobs waiting.
  std::size_t size() const { return waiting_.size(); }

  /// The ids of the jobs waiting, in no order.
  std::vector<std::string> ids() const { return {waiting_.begin(), waiting_.end()}; }

private:
  std::unordered_set<std::string> waiting_;
  // Queue order. An id erased from `waiting_` stays here until it reaches the
  // front, where `pop` skips it: erasing from the middle would cost a scan.
  std::deque<std::string> order_;
};

} // namespace svc::actors
