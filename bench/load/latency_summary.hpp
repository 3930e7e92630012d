#pragma once
// A run's latency in a few figures (p50/p90/p99/p99.9/max), read off a
// latency_histogram: each figure is within 0.4% of the exact nearest-rank
// percentile of the samples.

#include <cstdint>
#include <string>

#include "bench/load/latency_histogram.hpp"

namespace svc::bench {

/// Percentiles of a set of samples, in milliseconds; all 0 when there are none.
struct latency_summary {
  uint64_t count = 0;
  double p50_ms = 0;
  double p90_ms = 0;
  double p99_ms = 0;
  double p999_ms = 0;
  double max_ms = 0;
};

/// Summarizes the samples of `h`.
latency_summary summarize(const latency_histogram& h);

/// `p50 1.234 ms  p90 ...  p99 ...  p99.9 ...  max ...`, with the unit switched to s from 1 s on.
std::string to_text(const latency_summary& s);

/// `"p50_ms":1.234,"p90_ms":...,"p99_ms":...,"p999_ms":...,"max_ms":...` (members of a JSON object).
std::string to_json_members(const latency_summary& s);

} // namespace svc::bench
