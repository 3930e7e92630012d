#include "schema/event_types.hpp"

#include <algorithm>

namespace svc::schema {

const std::vector<std::string>& event_types() {
  static const std::vector<std::string> types{
    std::string{image_completed}, std::string{image_failed},   std::string{image_cancelled},
    std::string{video_completed}, std::string{video_failed},   std::string{video_cancelled},
    std::string{usage_balance_low}, std::string{webhook_endpoint_disabled}};
  return types;
}

bool is_event_type(std::string_view type) {
  auto& all = event_types();
  return std::find(all.begin(), all.end(), type) != all.end();
}

} // namespace svc::schema
