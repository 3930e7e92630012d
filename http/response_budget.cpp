#include "http/response_budget.hpp"

namespace svc::http {

void response_budget::hold(uint64_t n) { held_.fetch_add(n, std::memory_order_relaxed); }

void response_budget::release(uint64_t n) {
  held_.fetch_sub(n, std::memory_order_relaxed);
  if (exhausted())
    return;
  std::vector<std::function<void()>> woken;
  {
    // Checked again under the lock `wait` takes: a waiter registered after
    // the subtraction saw the total under the limit and did not register.
    std::lock_guard<std::mutex> guard{mutex_};
    woken.swap(waiters_);
  }
  for (auto& wake : woken)
    wake();
}

bool response_budget::wait(std::function<void()> wake) {
  std::lock_guard<std::mutex> guard{mutex_};
  if (!exhausted())
    return false;
  waiters_.push_back(std::move(wake));
  return true;
}

} // namespace svc::http
