#pragma once
// The source of "now" for everything that stores or compares wall time, so
// tests can move time instead of sleeping.

#include <atomic>
#include <chrono>
#include <memory>

namespace svc::core {

using time_point = std::chrono::system_clock::time_point;

/// Source of wall-clock time. Implementations are thread-safe.
class clock {
public:
  virtual ~clock() = default;
  /// Current wall-clock time.
  virtual time_point now() const = 0;
};

/// The system's wall clock.
class system_clock final : public clock {
public:
  time_point now() const override { return std::chrono::system_clock::now(); }
};

/// A clock that runs with the system clock plus an offset tests may advance.
class offset_clock final : public clock {
public:
  time_point now() const override;
  /// Moves this clock forward by `d`.
  void advance(std::chrono::milliseconds d);

private:
  std::atomic<int64_t> offset_ms_{0};
};

/// Returns a shared system clock.
std::shared_ptr<const clock> make_system_clock();

/// A clock that reads `start` now and runs on with the system clock
/// (`--clock-start`: serving a stored data directory as of its time).
std::shared_ptr<const clock> make_clock_starting_at(time_point start);

/// Milliseconds since the Unix epoch.
int64_t to_unix_ms(time_point t);

/// The time point for milliseconds since the Unix epoch, clamped to what a
/// time_point can hold (stored timestamps are untrusted).
time_point from_unix_ms(int64_t ms);

} // namespace svc::core
