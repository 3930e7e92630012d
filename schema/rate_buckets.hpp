#pragma once
// The rate-limit bucket classes of the contract: capacity (burst) and refill.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/described.hpp"

namespace svc::schema {

/// Every bucket class. `anonymous` is per client address, the rest per team.
/// `webhook_replay_events` counts events replayed (one token each), not requests.
enum class bucket_class : uint8_t {
  images_post,
  reads,
  files_post,
  webhook_endpoints_post,
  webhooks_test,
  webhook_replay_events,
  anonymous
};

/// A token bucket's shape.
struct bucket_limits {
  double capacity;   ///< burst size in tokens
  double per_minute; ///< refill rate in tokens per minute
};
SVC_DESCRIBE(bucket_limits, (capacity, per_minute))

/// The limits an operator may set, and so the limits a stored override must hold.
inline constexpr double min_capacity = 1, max_capacity = 1e12;
inline constexpr double min_per_minute = 1e-6, max_per_minute = 1e12;

/// Whether `l` lies within the bounds above.
inline bool within_bounds(const bucket_limits& l) {
  return l.capacity >= min_capacity && l.capacity <= max_capacity && l.per_minute >= min_per_minute
         && l.per_minute <= max_per_minute;
}

/// One row of the bucket table.
struct bucket_info {
  bucket_class cls;
  std::string_view name; ///< as named in 429 messages
  bucket_limits limits;  ///< defaults; a team may have an override
};

/// All classes, in enum order.
const std::vector<bucket_info>& bucket_table();

/// The row of `cls`.
const bucket_info& info(bucket_class cls);

/// The wire name of a class (`images_post`).
std::string_view to_string(bucket_class cls);

/// The class with this name, if any.
std::optional<bucket_class> bucket_class_from_name(std::string_view name);

/// Number of classes a team holds (every class but `anonymous`).
inline constexpr std::size_t team_bucket_count = 6;

} // namespace svc::schema
