#pragma once
// A set of threads that run renders, so at most N generations use the
// CPU at once (`--workers`) and actor threads never block on one. Tasks report
// completion themselves (a callback posting to their job actor).

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "providers/cancel_token.hpp"

namespace svc::providers {

/// One unit of work.
struct pool_task {
  std::function<void()> run;      ///< the work, on a pool thread; should not throw
  std::function<void()> dropped;  ///< called instead of `run` if it never starts (may be empty)
  cancel_token cancel;            ///< fired by shutdown; a task cancelled while queued is dropped
};

/// Threads: every member may be called from any thread, except `shutdown`
/// (and so the destructor) from inside a task, which would join itself.
class worker_pool {
public:
  /// Starts `threads` workers; 0 means one per hardware thread (at least 1).
  explicit worker_pool(int threads);

  /// Shuts down (see `shutdown`).
  ~worker_pool();

  worker_pool(const worker_pool&) = delete;
  worker_pool& operator=(const worker_pool&) = delete;

  /// Queues `task` (first in, first out). After shutdown, `dropped` runs at
  /// once on the calling thread.
  void submit(pool_task task);

  /// Stops taking tasks, drops every queued task (cancelling its token and
  /// calling `dropped`), cancels the tokens of running tasks, and waits for
  /// them to return. Idempotent.
  void shutdown();

  /// Starts `n` more workers (an engine with `n` slots joined); none after shutdown.
  void add_threads(std::size_t n);

  /// Number of worker threads.
  std::size_t threads() const;

  /// Tasks waiting for a thread.
  std::size_t queued() const;

  /// Tasks running now.
  std::size_t running() const;

private:
  void work(std::size_t index);

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<pool_task> queue_;
  std::vector<std::optional<cancel_token>> active_; // per worker, the running task's token
  std::size_t running_ = 0;
  bool stopping_ = false;
  mutable std::mutex join_mutex_;
  std::vector<std::thread> workers_; // under join_mutex_
};

} // namespace svc::providers
