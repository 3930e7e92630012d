#pragma once
// CAF's testing scheduler (virtual time, the test thread runs every actor)
// made safe for messages sent from other threads, such as a worker pool's
// render threads. test_coordinator::enqueue is a plain deque push
// (caf-0.17-notes §5), so an actor woken by another thread is parked here,
// under a lock, until the test thread takes it into the job queue.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include <caf/all.hpp>
#include <caf/scheduler/test_coordinator.hpp>

namespace svc::test {

class thread_safe_coordinator final : public caf::scheduler::test_coordinator {
public:
  /// Constructed by the actor system on the test thread, which becomes the owner.
  explicit thread_safe_coordinator(caf::actor_system& sys)
    : caf::scheduler::test_coordinator(sys), owner_(std::this_thread::get_id()) {}

  /// Installs this scheduler into `cfg` (before the actor system is built).
  static void install(caf::actor_system_config& cfg) {
    cfg.module_factories.push_back(
      [](caf::actor_system& sys) -> caf::actor_system::module* { return new thread_safe_coordinator(sys); });
  }

  /// Moves the actors other threads woke into the job queue (test thread
  /// only); returns how many.
  std::size_t take_incoming() {
    std::vector<caf::resumable*> woken;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      woken.swap(incoming_);
    }
    for (auto* ptr : woken)
      caf::scheduler::test_coordinator::enqueue(ptr);
    return woken.size();
  }

  /// Waits until another thread wakes an actor or `deadline` passes; true if one did.
  bool wait_incoming(std::chrono::steady_clock::time_point deadline) {
    std::unique_lock<std::mutex> lock(mutex_);
    return arrived_.wait_until(lock, deadline, [this] { return !incoming_.empty(); });
  }

protected:
  void enqueue(caf::resumable* ptr) override {
    if (std::this_thread::get_id() == owner_) {
      caf::scheduler::test_coordinator::enqueue(ptr);
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      incoming_.push_back(ptr);
    }
    arrived_.notify_all();
  }

private:
  std::thread::id owner_;
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::vector<caf::resumable*> incoming_;
};

} // namespace svc::test
