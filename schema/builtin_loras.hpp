#pragma once
// The style LoRAs every catalogue starts with (seeded at first start).

#include <string_view>
#include <vector>

namespace svc::schema {

/// A built-in LoRA before it has an id.
struct builtin_lora {
  std::string_view slug;
  std::string_view name;
  std::string_view description;
  std::vector<std::string_view> keywords;
};

/// The built-in catalogue, in display order.
const std::vector<builtin_lora>& builtin_loras();

} // namespace svc::schema
