#pragma once
// The anonymous bucket actor: rate limits requests that carry no valid key
// (401s, /docs, signed output URLs) per client address, so key guessing is
// slowed. Buckets that refill completely are dropped by a periodic sweep;
// their state is not worth persisting.

#include <unordered_map>

#include "actors/context.hpp"
#include "actors/token_bucket.hpp"

namespace svc::actors {

struct anonymous_bucket_state {
  std::unordered_map<std::string, token_bucket> by_address;
  bool sweep_armed = false;
  static inline const char* name = "anonymous_bucket";
};

anonymous_bucket_actor::behavior_type anonymous_bucket(
  anonymous_bucket_actor::stateful_pointer<anonymous_bucket_state> self, context ctx);

} // namespace svc::actors
