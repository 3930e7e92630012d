#include "providers/cancel_token.hpp"

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace svc::providers {

struct cancel_token::state {
  std::atomic<bool> flag{false};
  std::mutex mutex;
  std::condition_variable changed;
};

cancel_token::cancel_token() : state_(std::make_shared<state>()) {}

void cancel_token::cancel() const {
  {
    // The store happens under the mutex so a waiter cannot check the flag,
    // miss the store and then sleep through the notification.
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->flag.store(true, std::memory_order_release);
  }
  state_->changed.notify_all();
}

bool cancel_token::cancelled() const noexcept {
  return state_->flag.load(std::memory_order_acquire);
}

bool cancel_token::wait_for(std::chrono::nanoseconds d) const {
  std::unique_lock<std::mutex> lock(state_->mutex);
  return state_->changed.wait_for(lock, d, [this] { return state_->flag.load(std::memory_order_acquire); });
}

} // namespace svc::providers
