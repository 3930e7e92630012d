#pragma once
// The v1.0 event taxonomy: the one list that validation, `["*"]` expansion,
// the emitters and `openapi.yaml` agree on.

#include <string>
#include <string_view>
#include <vector>

namespace svc::schema {

inline constexpr std::string_view image_completed = "image.completed";
inline constexpr std::string_view image_failed = "image.failed";
inline constexpr std::string_view image_cancelled = "image.cancelled";
inline constexpr std::string_view video_completed = "video.completed";
inline constexpr std::string_view video_failed = "video.failed";
inline constexpr std::string_view video_cancelled = "video.cancelled";
inline constexpr std::string_view usage_balance_low = "usage.balance_low";
inline constexpr std::string_view webhook_endpoint_disabled = "webhook.endpoint_disabled";

/// Every v1.0 event type, in documentation order (what `["*"]` expands to).
const std::vector<std::string>& event_types();

/// True for a v1.0 event type.
bool is_event_type(std::string_view type);

} // namespace svc::schema
