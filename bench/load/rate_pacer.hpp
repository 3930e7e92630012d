#pragma once
// Spaces one team's requests on one rate-limit bucket so the harness takes
// tokens as fast as they come back and never hammers. It mirrors svcd's token
// bucket from each answer's headers: `X-RateLimit-Remaining` whole tokens
// left, refilling `X-RateLimit-Limit - Remaining` tokens by `X-RateLimit-Reset`
// (the Unix second the bucket is full again), less one token per request
// still in flight; after a 429 nothing goes before `Retry-After`. Several
// connections may share one pacer.

#include "bench/load/http_connection.hpp"

#include <chrono>
#include <cstddef>

namespace svc::bench {

class rate_pacer {
public:
  /// The earliest time the next request on this bucket may be sent.
  steady::time_point not_before() const;

  /// A request on this bucket goes out at `now`.
  void sent(steady::time_point now);

  /// Learns from the outcome of a request that was `sent` (errors only end it).
  void observe(const exchange& x);

private:
  double tokens_at(steady::time_point t) const;

  bool known_ = false;                 ///< an answer with rate-limit headers has been seen
  double tokens_ = 0;                  ///< estimated tokens at `at_`, after the requests in flight
  steady::time_point at_{};
  double per_second_ = 0;              ///< refill rate; 0 until the bucket was seen below full
  double capacity_ = 0;                ///< `X-RateLimit-Limit`
  std::size_t in_flight_ = 0;          ///< sent, not yet observed
  steady::time_point retry_after_{};   ///< a 429's `Retry-After`: nothing before it
};

} // namespace svc::bench
