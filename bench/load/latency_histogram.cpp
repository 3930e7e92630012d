#include "bench/load/latency_histogram.hpp"

#include <algorithm>
#include <cmath>

namespace svc::bench {
namespace {

// Values below 2^(sub_bits + 1) have a bucket each; above, each power of two
// [2^e, 2^(e+1)) is cut into 2^sub_bits buckets of width 2^(e - sub_bits).
constexpr unsigned sub_bits = 7;
constexpr uint64_t sub_count = uint64_t{1} << sub_bits;       // 128
constexpr uint64_t exact_below = uint64_t{1} << (sub_bits + 1); // 256
constexpr unsigned top_exponent = 40;

static_assert(latency_histogram::bucket_count == exact_below + (top_exponent - sub_bits - 1) * sub_count);

unsigned log2_floor(uint64_t v) { return 63U - static_cast<unsigned>(__builtin_clzll(v)); }

} // namespace

std::size_t latency_histogram::bucket_of(uint64_t ns) {
  if (ns < exact_below)
    return ns;
  if (ns >> top_exponent)
    return bucket_count - 1;
  const auto e = log2_floor(ns);
  // (ns >> (e - sub_bits)) is in [128, 256): the sub-bucket plus one sub_count.
  return (e - sub_bits) * sub_count + (ns >> (e - sub_bits));
}

uint64_t latency_histogram::bucket_low(std::size_t index) {
  if (index < exact_below)
    return index;
  const auto shift = index / sub_count - 1; // e - sub_bits
  return (index % sub_count + sub_count) << shift;
}

uint64_t latency_histogram::bucket_high(std::size_t index) {
  if (index < exact_below)
    return index;
  return bucket_low(index) + (uint64_t{1} << (index / sub_count - 1)) - 1;
}

latency_histogram::latency_histogram() : counts_(bucket_count) {}

void latency_histogram::record(std::chrono::nanoseconds d) {
  const auto ns = static_cast<uint64_t>(std::max<int64_t>(d.count(), 0));
  ++counts_[bucket_of(ns)];
  ++count_;
  min_ = std::min(min_, ns);
  max_ = std::max(max_, ns);
}

void latency_histogram::add(std::size_t index, uint64_t n) {
  if (n == 0 || index >= bucket_count)
    return;
  counts_[index] += n;
  count_ += n;
  min_ = std::min(min_, bucket_low(index));
  max_ = std::max(max_, bucket_high(index));
}

void latency_histogram::merge(const latency_histogram& other) {
  for (std::size_t i = 0; i < bucket_count; ++i)
    counts_[i] += other.counts_[i];
  count_ += other.count_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
}

void latency_histogram::clear() {
  std::fill(counts_.begin(), counts_.end(), 0);
  count_ = 0;
  min_ = UINT64_MAX;
  max_ = 0;
}

uint64_t latency_histogram::percentile_ns(double p) const {
  if (count_ == 0)
    return 0;
  const auto rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(std::clamp(p, 0.0, 1.0) * count_)));
  uint64_t seen = 0;
  for (std::size_t i = 0; i < bucket_count; ++i) {
    seen += counts_[i];
    if (seen >= rank) {
      const auto mid = bucket_low(i) + (bucket_high(i) - bucket_low(i)) / 2;
      return std::clamp(mid, min_, max_);
    }
  }
  return max_;
}

std::vector<std::pair<uint32_t, uint64_t>> latency_histogram::nonzero() const {
  std::vector<std::pair<uint32_t, uint64_t>> out;
  for (std::size_t i = 0; i < bucket_count; ++i)
    if (counts_[i])
      out.emplace_back(static_cast<uint32_t>(i), counts_[i]);
  return out;
}

} // namespace svc::bench
