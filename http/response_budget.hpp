#pragma once
// The bytes of answers waiting in memory for their clients, over every
// connection of the server. A client that stops reading keeps its answers
// queued until the write deadline closes it; while the total is at its limit
// no connection reads another request, so such clients cannot add up to more.

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace svc::http {

class response_budget {
public:
  /// A budget of `limit` bytes.
  explicit response_budget(uint64_t limit) : limit_{limit} {}

  /// Counts `n` more bytes held by some connection.
  void hold(uint64_t n);
  /// Counts `n` bytes written (or dropped); once the total is under the
  /// limit, calls every waiting `wake` on this thread.
  void release(uint64_t n);
  /// True while the held total is at or over the limit (any thread).
  bool exhausted() const { return held_.load(std::memory_order_relaxed) >= limit_; }
  /// Registers `wake` for the next release that brings the total under the
  /// limit and returns true; returns false (and forgets `wake`) when the
  /// total is already under it.
  bool wait(std::function<void()> wake);
  /// Bytes held now.
  uint64_t held() const { return held_.load(std::memory_order_relaxed); }

private:
  const uint64_t limit_;
  std::atomic<uint64_t> held_{0};
  std::mutex mutex_;
  std::vector<std::function<void()>> waiters_;
};

} // namespace svc::http
