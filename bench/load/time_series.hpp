#pragma once
// A run second by second: answers, errors and the p50/p99 of that second's
// good answers. Each io thread keeps its own recorder; a second is kept as
// its non-empty histogram buckets only (a few hundred at most in practice,
// not the 35 KiB of a whole histogram), and the recorders are merged at the end.

#include <chrono>
#include <cstdint>
#include <utility>
#include <vector>

#include "bench/load/latency_histogram.hpp"

namespace svc::bench {

/// One second of a run.
struct time_series_row {
  uint64_t second = 0;   ///< from the run's start (0 is [0 s, 1 s))
  uint64_t requests = 0; ///< answers and transport errors completed in it
  uint64_t errors = 0;   ///< of those: not the answer expected (another status, no answer)
  double p50_ms = 0;     ///< of the good answers completed in it; 0 without any
  double p99_ms = 0;
};

class time_series_recorder {
public:
  /// Seconds count from `origin`.
  explicit time_series_recorder(std::chrono::steady_clock::time_point origin);

  /// An exchange completed at `at`: a good answer with `latency`, or (`ok`
  /// false) an error. Calls come in time order, as an io thread's do.
  void record(std::chrono::steady_clock::time_point at, bool ok, std::chrono::nanoseconds latency);

  /// Rows for seconds 0..max(`seconds`, last second seen + 1) - 1 from every
  /// recorder in `parts`, seconds without an exchange included.
  static std::vector<time_series_row> merge(const std::vector<const time_series_recorder*>& parts, uint64_t seconds);

private:
  struct closed_second {
    uint64_t second = 0;
    uint64_t requests = 0;
    uint64_t errors = 0;
    std::vector<std::pair<uint32_t, uint64_t>> buckets; ///< non-empty, as (index, samples)
  };

  void close_current();

  std::chrono::steady_clock::time_point origin_;
  closed_second current_;
  latency_histogram current_latency_;
  std::vector<closed_second> closed_;
};

} // namespace svc::bench
