#pragma once
// svc-bench's receiver half of a webhook run: each endpoint's secret and what
// arrived. Every delivery's `Svc-Webhook-Signature` is verified against its
// endpoint's secret (`/hooks/<i>` names the endpoint), its envelope parsed
// and its id matched to `Svc-Event-Id`; first receipts inside the window
// count, with their latency (receipt - envelope `created_at`, millisecond
// precision). Called on the receiver's threads; the endpoints are all
// registered before any event exists.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "bench/load/latency_histogram.hpp"
#include "bench/receiver/https_receiver.hpp"

namespace svc::bench {

/// What the receiver saw.
struct delivery_counts {
  uint64_t deliveries = 0;             ///< verified first receipts inside the window
  latency_histogram latency;           ///< of those: receipt - envelope `created_at`
  std::vector<uint64_t> per_second;    ///< of those, by second of the window
  uint64_t signature_failures = 0;     ///< missing or wrong `Svc-Webhook-Signature` (any time)
  uint64_t malformed = 0;              ///< unknown path, unparsable envelope, header/envelope mismatch
  uint64_t duplicates = 0;             ///< an (endpoint, event) received again
  uint64_t received = 0;               ///< distinct (endpoint, event) received
  std::map<std::string, uint64_t> types; ///< event type -> deliveries
};

class delivery_checker {
public:
  using wall = std::chrono::system_clock;

  /// Room for `endpoints` endpoints, indexes 0..endpoints-1.
  explicit delivery_checker(std::size_t endpoints);

  /// Records endpoint `index`'s secret; indexes go up from 0 in order.
  void set_secret(std::size_t index, std::string secret);

  /// Deliveries received in [start, end) count for throughput and latency.
  void set_window(wall::time_point start, wall::time_point end);

  /// Called (under the checker's lock) after each first receipt; empty: nobody.
  void on_progress(std::function<void()> f);

  /// Checks one delivery and says what to answer (200 to all).
  receiver::reply check(const receiver::received_request& r);

  /// Distinct (endpoint, event) received so far.
  uint64_t received() const { return received_.load(std::memory_order_relaxed); }

  /// Waits until `n` were received or `deadline` passed; whether they were.
  bool wait_received(uint64_t n, std::chrono::steady_clock::time_point deadline);

  /// What was seen so far.
  delivery_counts counts();

private:
  std::vector<std::vector<std::string>> secrets_; ///< by endpoint index, one secret each
  std::atomic<std::size_t> known_{0};             ///< secrets set so far
  std::mutex mutex_;
  wall::time_point window_start_ = wall::time_point::max(), window_end_ = wall::time_point::max();
  std::condition_variable cv_;
  std::function<void()> progress_;
  std::unordered_set<std::string> seen_; ///< "index/evt_..."
  delivery_counts counts_;
  std::atomic<uint64_t> received_{0};
};

} // namespace svc::bench
