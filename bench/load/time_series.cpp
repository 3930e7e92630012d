#include "bench/load/time_series.hpp"

#include <algorithm>

namespace svc::bench {

time_series_recorder::time_series_recorder(std::chrono::steady_clock::time_point origin) : origin_(origin) {}

void time_series_recorder::record(std::chrono::steady_clock::time_point at, bool ok, std::chrono::nanoseconds latency) {
  const auto since = std::chrono::duration_cast<std::chrono::seconds>(at - origin_).count();
  const auto second = static_cast<uint64_t>(std::max<int64_t>(since, 0));
  // An exchange that ends a hair before the previous one's second (clock
  // reads race with handler order) joins the current second.
  if (second > current_.second) {
    close_current();
    current_.second = second;
  }
  ++current_.requests;
  if (ok)
    current_latency_.record(latency);
  else
    ++current_.errors;
}

void time_series_recorder::close_current() {
  if (current_.requests == 0)
    return;
  current_.buckets = current_latency_.nonzero();
  closed_.push_back(std::move(current_));
  current_ = {};
  current_latency_.clear();
}

std::vector<time_series_row> time_series_recorder::merge(const std::vector<const time_series_recorder*>& parts,
                                                         uint64_t seconds) {
  // The open second of each recorder is read as if closed, without changing it.
  std::vector<closed_second> all;
  for (auto* p : parts) {
    all.insert(all.end(), p->closed_.begin(), p->closed_.end());
    if (p->current_.requests > 0) {
      auto open = p->current_;
      open.buckets = p->current_latency_.nonzero();
      all.push_back(std::move(open));
    }
  }
  for (auto& s : all)
    seconds = std::max(seconds, s.second + 1);
  std::vector<time_series_row> rows(seconds);
  for (uint64_t i = 0; i < seconds; ++i)
    rows[i].second = i;
  // One histogram at a time: a whole one per second would be 35 KiB a second.
  std::sort(all.begin(), all.end(), [](auto& a, auto& b) { return a.second < b.second; });
  latency_histogram latency;
  for (std::size_t i = 0; i < all.size();) {
    auto& row = rows[all[i].second];
    latency.clear();
    for (; i < all.size() && all[i].second == row.second; ++i) {
      row.requests += all[i].requests;
      row.errors += all[i].errors;
      for (auto& [index, n] : all[i].buckets)
        latency.add(index, n);
    }
    row.p50_ms = static_cast<double>(latency.percentile_ns(0.50)) / 1e6;
    row.p99_ms = static_cast<double>(latency.percentile_ns(0.99)) / 1e6;
  }
  return rows;
}

} // namespace svc::bench
