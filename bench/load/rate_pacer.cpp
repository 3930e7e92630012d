#include "bench/load/rate_pacer.hpp"

#include <algorithm>
#include <string>

namespace svc::bench {
namespace {

// A bucket this far from full has its refill rate known to within a tenth
// (Reset counts whole seconds), so the estimate can be trusted over an answer.
constexpr std::chrono::seconds rate_sure_after{10};

// The numeric value of header `name`, or -1 when it is missing or not a number.
double header_number(const http::response<http::string_body>& res, const char* name) {
  auto it = res.find(name);
  if (it == res.end())
    return -1;
  try {
    return std::stod(std::string{it->value()});
  } catch (const std::exception&) {
    return -1;
  }
}

double unix_seconds_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

steady::duration seconds(double s) {
  return std::chrono::duration_cast<steady::duration>(std::chrono::duration<double>(s));
}

} // namespace

double rate_pacer::tokens_at(steady::time_point t) const {
  const auto elapsed = std::chrono::duration<double>(t - at_).count();
  return std::min(capacity_, tokens_ + std::max(0.0, elapsed) * per_second_);
}

steady::time_point rate_pacer::not_before() const {
  if (!known_ || tokens_ >= 1)
    return retry_after_;
  // Unknown refill rate and no token left: only a 429's Retry-After can tell.
  if (per_second_ <= 0)
    return retry_after_;
  return std::max(retry_after_, at_ + seconds((1 - tokens_) / per_second_));
}

void rate_pacer::sent(steady::time_point now) {
  ++in_flight_;
  if (!known_)
    return;
  tokens_ = tokens_at(now) - 1;
  at_ = now;
}

void rate_pacer::observe(const exchange& x) {
  if (in_flight_ > 0)
    --in_flight_;
  if (x.error)
    return;
  const auto& res = x.response;
  if (res.result_int() == 429) {
    // Retry-After is a whole number of seconds (>= 1 from svcd); without one, a second.
    retry_after_ = std::max(retry_after_, x.answered + seconds(std::max(header_number(res, "Retry-After"), 1.0)));
    tokens_ = std::min(tokens_at(x.answered), 0.0);
    at_ = x.answered;
    return;
  }
  const auto remaining = header_number(res, "X-RateLimit-Remaining");
  const auto limit = header_number(res, "X-RateLimit-Limit");
  const auto reset = header_number(res, "X-RateLimit-Reset");
  if (remaining < 0 || limit <= 0)
    return;
  // Reset is rounded to whole seconds, so the rate is a slight underestimate:
  // the safe side. A full bucket says nothing about its rate.
  const auto to_full = reset - unix_seconds_now();
  if (remaining < limit && to_full > 0)
    per_second_ = (limit - remaining) / to_full;
  // Whole seconds of Reset are a small error on a long way to full only.
  const bool rate_sure = remaining < limit && to_full >= rate_sure_after.count();
  known_ = true;
  capacity_ = limit;
  // Requests still in flight will take tokens this answer has not counted yet.
  auto tokens = remaining - static_cast<double>(in_flight_);
  // Answers on different connections can arrive in another order than svcd
  // took their tokens: an answer older than the last one shows tokens since
  // spent. With the refill rate sure, the estimate (every send counted, the
  // refill added) is the better guide, and an answer only ever lowers it.
  if (rate_sure)
    tokens = std::min(tokens, tokens_at(x.answered));
  tokens_ = tokens;
  at_ = x.answered;
}

} // namespace svc::bench
