#include "core/duration.hpp"

#include <limits>

#include "core/comma_list.hpp"

namespace svc::core {

std::optional<duration> parse_duration(std::string_view text) {
  std::size_t pos = 0;
  int64_t value = 0;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
    if (value > (std::numeric_limits<int64_t>::max() - 9) / 10)
      return std::nullopt;
    value = value * 10 + (text[pos++] - '0');
  }
  if (pos == 0)
    return std::nullopt;
  auto unit = text.substr(pos);
  int64_t scale = 0;
  if (unit == "ms")
    scale = 1;
  else if (unit == "s")
    scale = 1000;
  else if (unit == "m")
    scale = 60'000;
  else if (unit == "h")
    scale = 3'600'000;
  else if (unit == "d")
    scale = 86'400'000;
  else
    return std::nullopt;
  // Anything past ten years is a typo, and would overflow timers downstream.
  if (value > 10LL * 365 * 86'400'000 / scale)
    return std::nullopt;
  return duration{value * scale};
}

std::optional<std::vector<duration>> parse_duration_list(std::string_view text) {
  return parse_comma_list(text, [](std::string_view item) { return parse_duration(item); });
}

std::string format_duration(duration d) {
  auto ms = d.count();
  struct unit { int64_t scale; const char* name; };
  static constexpr unit units[] = {{86'400'000, "d"}, {3'600'000, "h"}, {60'000, "m"}, {1000, "s"}};
  for (auto& u : units)
    if (ms != 0 && ms % u.scale == 0)
      return std::to_string(ms / u.scale) + u.name;
  return std::to_string(ms) + "ms";
}

} // namespace svc::core
