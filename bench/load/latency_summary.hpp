#pragma once
// Percentiles of a run's latencies, from every sample kept (a sorted vector:
// a 10 s run at 100k/s is 8 MB, and the percentiles are then exact).

#include <chrono>
#include <string>
#include <vector>

namespace svc::bench {

/// p50/p90/p99/max of a set of samples, in milliseconds; all 0 when there are none.
struct latency_summary {
  std::size_t count = 0;
  double p50_ms = 0;
  double p90_ms = 0;
  double p99_ms = 0;
  double max_ms = 0;
};

/// Summarizes `samples` (sorted in place). Percentiles are nearest-rank.
latency_summary summarize(std::vector<std::chrono::nanoseconds>& samples);

/// `p50 1.234 ms  p90 ...  p99 ...  max ...`, with the unit switched to s from 1 s on.
std::string to_text(const latency_summary& s);

/// `"p50_ms":1.234,"p90_ms":...,"p99_ms":...,"max_ms":...` (members of a JSON object).
std::string to_json_members(const latency_summary& s);

} // namespace svc::bench
