#pragma once
// One rate_pacer per key (per team) for one bucket class, or none at all:
// closed loop the harness takes tokens as fast as they come back, open loop
// keeps its arrival rate whatever the buckets say (a 429 is then an answer
// like any other, and counted).

#include <cstddef>
#include <vector>

#include "bench/load/rate_pacer.hpp"

namespace svc::bench {

class key_pacers {
public:
  /// `keys` pacers when `active`, else none.
  key_pacers(std::size_t keys, bool active);

  /// When a request on `key`'s bucket may go. At or before `now` it goes now
  /// and is counted as sent; later, nothing is counted.
  steady::time_point claim(std::size_t key, steady::time_point now);

  /// Learns from the outcome of a claimed request.
  void observe(std::size_t key, const exchange& x);

private:
  std::vector<rate_pacer> pacers_;
};

} // namespace svc::bench
