#pragma once
// Waiting on a condition with a deadline: the e2e tests' replacement for
// fixed sleeps. A condition is polled until it holds or the deadline passes.

#include <chrono>
#include <thread>

namespace svc::e2e {

/// Polls `condition()` every `interval` until it returns true or `timeout`
/// has passed; returns whether it held. The condition runs at least once.
template <class Condition>
bool wait_until(Condition&& condition, std::chrono::milliseconds timeout,
                std::chrono::milliseconds interval = std::chrono::milliseconds{10}) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (condition())
      return true;
    if (std::chrono::steady_clock::now() >= deadline)
      return false;
    std::this_thread::sleep_for(interval);
  }
}

} // namespace svc::e2e
