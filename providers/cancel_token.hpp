#pragma once
// A cancellation flag shared between whoever started a render and the thread
// running it. Running work polls it between rows and tiles, and waits on it,
// so a cancel stops work already in progress rather than only queued work.

#include <chrono>
#include <memory>

namespace svc::providers {

/// Copies share one flag; all members are thread-safe.
class cancel_token {
public:
  /// A fresh token, not cancelled.
  cancel_token();

  /// Sets the flag and wakes every `wait_for`. Idempotent.
  void cancel() const;

  /// Whether `cancel` has been called on this token or a copy of it.
  bool cancelled() const noexcept;

  /// Waits up to `d`; returns true (at once) when the token is or becomes cancelled.
  bool wait_for(std::chrono::nanoseconds d) const;

private:
  struct state;
  std::shared_ptr<state> state_;
};

} // namespace svc::providers
