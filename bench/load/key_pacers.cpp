#include "bench/load/key_pacers.hpp"

namespace svc::bench {

key_pacers::key_pacers(std::size_t keys, bool active) : pacers_(active ? keys : 0) {}

steady::time_point key_pacers::claim(std::size_t key, steady::time_point now) {
  if (pacers_.empty())
    return now;
  const auto when = pacers_[key].not_before();
  if (when <= now)
    pacers_[key].sent(now);
  return when;
}

void key_pacers::observe(std::size_t key, const exchange& x) {
  if (!pacers_.empty())
    pacers_[key].observe(x);
}

} // namespace svc::bench
