#include "providers/worker_pool.hpp"

#include <algorithm>

namespace svc::providers {

worker_pool::worker_pool(int threads) {
  std::size_t n = threads > 0 ? static_cast<std::size_t>(threads) : std::thread::hardware_concurrency();
  n = std::max<std::size_t>(n, 1);
  active_.resize(n);
  workers_.reserve(n);
  for (std::size_t i = 0; i < n; ++i) workers_.emplace_back([this, i] { work(i); });
}

worker_pool::~worker_pool() { shutdown(); }

void worker_pool::add_threads(std::size_t n) {
  std::lock_guard<std::mutex> joins(join_mutex_);
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_) return;
  auto first = active_.size();
  active_.resize(first + n);
  for (std::size_t i = first; i < first + n; ++i) workers_.emplace_back([this, i] { work(i); });
}

std::size_t worker_pool::threads() const {
  std::lock_guard<std::mutex> lock(join_mutex_);
  return workers_.size();
}

void worker_pool::submit(pool_task task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!stopping_) {
      queue_.push_back(std::move(task));
      wake_.notify_one();
      return;
    }
  }
  task.cancel.cancel();
  if (task.dropped) task.dropped();
}

void worker_pool::shutdown() {
  std::deque<pool_task> dropped;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    dropped.swap(queue_);
    for (auto& token : active_)
      if (token) token->cancel();
  }
  wake_.notify_all();
  // Outside the lock: a `dropped` callback may submit again (and be dropped).
  for (auto& task : dropped) {
    task.cancel.cancel();
    if (task.dropped) task.dropped();
  }
  std::lock_guard<std::mutex> lock(join_mutex_);
  for (auto& t : workers_)
    if (t.joinable()) t.join();
}

std::size_t worker_pool::queued() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.size();
}

std::size_t worker_pool::running() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return running_;
}

void worker_pool::work(std::size_t index) {
  for (;;) {
    pool_task task;
    bool skip = false;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      task = std::move(queue_.front());
      queue_.pop_front();
      skip = task.cancel.cancelled();
      if (!skip) {
        active_[index] = task.cancel;
        ++running_;
      }
    }
    if (skip) {
      if (task.dropped) task.dropped();
      continue;
    }
    // A throwing task must not take its worker down with it (std::terminate);
    // the task's own callbacks are how failures get reported.
    try {
      if (task.run) task.run();
    } catch (...) {
    }
    std::lock_guard<std::mutex> lock(mutex_);
    active_[index].reset();
    --running_;
  }
}

} // namespace svc::providers
