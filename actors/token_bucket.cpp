#include "actors/token_bucket.hpp"

#include <algorithm>
#include <cmath>

namespace svc::actors {
namespace {

// The longest wait reported. A slow refill of a big bucket can take longer than
// int64 milliseconds hold (1e12 tokens at 1e-6 a minute is 6e22 ms).
constexpr double max_wait_ms = 1e15; // about 31,700 years

} // namespace

token_bucket::token_bucket(schema::bucket_limits limits, int64_t now_ms)
  : limits_{limits}, tokens_{limits.capacity}, at_ms_{now_ms} {}

token_bucket::token_bucket(schema::bucket_limits limits, double tokens, int64_t at_ms)
  : limits_{limits}, tokens_{std::clamp(std::isfinite(tokens) ? tokens : 0.0, -max_debt, limits.capacity)}, at_ms_{at_ms} {}

void token_bucket::refill(int64_t now_ms) {
  if (now_ms > at_ms_) {
    tokens_ = std::min(limits_.capacity, tokens_ + static_cast<double>(now_ms - at_ms_) * limits_.per_minute / 60000.0);
    at_ms_ = now_ms;
  }
}

double token_bucket::level(int64_t now_ms) {
  refill(now_ms);
  return tokens_;
}

int64_t token_bucket::reset_epoch(int64_t now_ms) const {
  double missing = limits_.capacity - tokens_;
  double ms = limits_.per_minute > 0 ? std::min(missing * 60000.0 / limits_.per_minute, max_wait_ms) : 0;
  return static_cast<int64_t>(std::ceil((static_cast<double>(now_ms) + ms) / 1000.0));
}

take_result token_bucket::take(int64_t now_ms) { return charge(1, now_ms); }

take_result token_bucket::charge(int64_t n, int64_t now_ms) {
  refill(now_ms);
  take_result r;
  if (tokens_ >= 1.0) {
    tokens_ = std::max(tokens_ - static_cast<double>(std::max<int64_t>(n, 0)), -max_debt);
    r.allowed = true;
  } else {
    double ms = limits_.per_minute > 0 ? std::min((1.0 - tokens_) * 60000.0 / limits_.per_minute, max_wait_ms) : 60000.0;
    r.retry_after = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(ms / 1000.0)));
  }
  r.remaining = std::max<int64_t>(0, static_cast<int64_t>(std::floor(tokens_)));
  r.reset_epoch = reset_epoch(now_ms);
  return r;
}

void token_bucket::set_limits(schema::bucket_limits limits, int64_t now_ms) {
  refill(now_ms);
  limits_ = limits;
  tokens_ = std::min(tokens_, limits_.capacity);
}

} // namespace svc::actors
