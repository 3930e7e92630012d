#pragma once
// The moment an engine has done its part of a render and only its outputs
// are left to fetch: whoever holds its slot (the router, the scheduler)
// listens, and the back end fires it, so the engine takes the next render
// while this one's outputs download.

#include <functional>
#include <mutex>
#include <utility>
#include <vector>

namespace svc::providers {

/// Thread-safe; fires once.
class engine_done_signal {
public:
  /// Runs `f` when the signal fires (at once if it has).
  void listen(std::function<void()> f) {
    {
      std::lock_guard lock{mutex_};
      if (!fired_) {
        listeners_.push_back(std::move(f));
        return;
      }
    }
    f();
  }

  /// Runs every listener, the first time only.
  void fire() {
    std::vector<std::function<void()>> now;
    {
      std::lock_guard lock{mutex_};
      if (fired_)
        return;
      fired_ = true;
      now.swap(listeners_);
    }
    for (auto& f : now)
      f();
  }

private:
  std::mutex mutex_;
  bool fired_ = false;
  std::vector<std::function<void()>> listeners_;
};

} // namespace svc::providers
