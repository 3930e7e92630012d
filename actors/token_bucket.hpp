#pragma once
// Token-bucket arithmetic, free of actors and clocks so it can be tested alone:
// fractional refill at `per_minute / 60000` tokens per millisecond, capped at
// capacity.

#include <cstdint>

#include "schema/rate_buckets.hpp"

namespace svc::actors {

/// The verdict of one take.
struct take_result {
  bool allowed = false;
  int64_t remaining = 0;   ///< whole tokens left
  int64_t reset_epoch = 0; ///< Unix second the bucket is full again
  int64_t retry_after = 0; ///< whole seconds until a token is back (>= 1 when refused)
};

/// The deepest debt a restored level may claim (a damaged snapshot cannot
/// lock a team out for longer than any real charge could).
inline constexpr double max_debt = 1e7;

class token_bucket {
public:
  /// A full bucket of `limits` at `now_ms`.
  token_bucket(schema::bucket_limits limits, int64_t now_ms);

  /// A bucket restored to `tokens` at `at_ms` (clamped to [-max_debt, capacity]).
  token_bucket(schema::bucket_limits limits, double tokens, int64_t at_ms);

  /// Takes one token if there is one.
  take_result take(int64_t now_ms);

  /// Takes `n` tokens if there is at least one, leaving the bucket in debt
  /// when `n` is more than it holds: a cost known only after the work (the
  /// events a replay enqueued) is paid in full, and the refill repays the
  /// debt before anything else is allowed.
  take_result charge(int64_t n, int64_t now_ms);

  /// Tokens at `now_ms` without taking any.
  double level(int64_t now_ms);

  /// Changes capacity and refill, keeping the current level (capped).
  void set_limits(schema::bucket_limits limits, int64_t now_ms);

  /// True when the bucket is full at `now_ms` (nothing worth keeping).
  bool full(int64_t now_ms) { return level(now_ms) >= limits_.capacity; }

  const schema::bucket_limits& limits() const { return limits_; }
  /// Tokens and the time of that reading (for snapshots).
  double tokens() const { return tokens_; }
  int64_t at_ms() const { return at_ms_; }

private:
  void refill(int64_t now_ms);
  int64_t reset_epoch(int64_t now_ms) const;

  schema::bucket_limits limits_;
  double tokens_;
  int64_t at_ms_;
};

} // namespace svc::actors
