#pragma once
// The API keys whose owners accepted them lately: a forwarded request with
// one of them passed the owner's authentication. A request with any other
// key draws from its client's anonymous bucket here before it is forwarded,
// so a client with made-up keys sends the owner's link no more than that
// bucket allows (each request may carry up to --body-limit bytes), while a
// real key's requests go on at its team's own rate, which the owner keeps.
// Keys are held by their SHA-256 only, for at most `ttl`, and at most
// `capacity` of them (when full, the expired go, then all: a forgotten key
// only draws one anonymous token again).

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/crypto.hpp"

namespace svc::cluster {

class vouched_keys {
public:
  using clock = std::chrono::steady_clock;
  vouched_keys(std::size_t capacity, clock::duration ttl) : capacity_{capacity}, ttl_{ttl} {}

  /// Whether an owner accepted `key` within the last `ttl`.
  bool vouched(std::string_view key, clock::time_point now) const;
  /// An owner answered a request with `key`: one that found the key valid
  /// vouches for it, any other disowns it.
  void answered(std::string_view key, bool authenticated, clock::time_point now);

private:
  std::size_t capacity_;
  clock::duration ttl_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, clock::time_point> until_; ///< SHA-256 bytes -> end of the vouching
};

} // namespace svc::cluster
