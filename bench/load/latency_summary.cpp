#include "bench/load/latency_summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace svc::bench {
namespace {

double ms(std::chrono::nanoseconds d) { return static_cast<double>(d.count()) / 1e6; }

// Nearest rank: the smallest sample with at least `p` of all samples at or below it.
std::chrono::nanoseconds percentile(const std::vector<std::chrono::nanoseconds>& sorted, double p) {
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sorted.size())));
  return sorted[std::max<std::size_t>(rank, 1) - 1];
}

std::string format_ms(double v) {
  char buf[32];
  if (v >= 1000)
    std::snprintf(buf, sizeof buf, "%.3f s", v / 1000);
  else
    std::snprintf(buf, sizeof buf, "%.3f ms", v);
  return buf;
}

} // namespace

latency_summary summarize(std::vector<std::chrono::nanoseconds>& samples) {
  latency_summary s;
  s.count = samples.size();
  if (samples.empty())
    return s;
  std::sort(samples.begin(), samples.end());
  s.p50_ms = ms(percentile(samples, 0.50));
  s.p90_ms = ms(percentile(samples, 0.90));
  s.p99_ms = ms(percentile(samples, 0.99));
  s.max_ms = ms(samples.back());
  return s;
}

std::string to_text(const latency_summary& s) {
  if (s.count == 0)
    return "no samples";
  return "p50 " + format_ms(s.p50_ms) + "  p90 " + format_ms(s.p90_ms) + "  p99 " + format_ms(s.p99_ms) + "  max "
         + format_ms(s.max_ms);
}

std::string to_json_members(const latency_summary& s) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "\"p50_ms\":%.3f,\"p90_ms\":%.3f,\"p99_ms\":%.3f,\"max_ms\":%.3f", s.p50_ms, s.p90_ms,
                s.p99_ms, s.max_ms);
  return buf;
}

} // namespace svc::bench
