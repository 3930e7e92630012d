#include "bench/load/latency_summary.hpp"


#include "bench/load/format.hpp"

namespace svc::bench {
namespace {

double ms(uint64_t ns) { return static_cast<double>(ns) / 1e6; }

std::string format_ms(double v) { return v >= 1000 ? format("%.3f s", v / 1000) : format("%.3f ms", v); }

} // namespace

latency_summary summarize(const latency_histogram& h) {
  latency_summary s;
  s.count = h.count();
  s.p50_ms = ms(h.percentile_ns(0.50));
  s.p90_ms = ms(h.percentile_ns(0.90));
  s.p99_ms = ms(h.percentile_ns(0.99));
  s.p999_ms = ms(h.percentile_ns(0.999));
  s.max_ms = ms(h.max_ns());
  return s;
}

std::string to_text(const latency_summary& s) {
  if (s.count == 0)
    return "no samples";
  return "p50 " + format_ms(s.p50_ms) + "  p90 " + format_ms(s.p90_ms) + "  p99 " + format_ms(s.p99_ms) + "  p99.9 "
         + format_ms(s.p999_ms) + "  max " + format_ms(s.max_ms);
}

std::string to_json_members(const latency_summary& s) {
  return format("\"p50_ms\":%.3f,\"p90_ms\":%.3f,\"p99_ms\":%.3f,\"p999_ms\":%.3f,\"max_ms\":%.3f", s.p50_ms, s.p90_ms,
                s.p99_ms, s.p999_ms, s.max_ms);
}

} // namespace svc::bench
