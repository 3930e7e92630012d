#include "core/byte_size.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <utility>

namespace svc::core {
namespace {

constexpr std::pair<std::string_view, int> units[] = {{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}};

} // namespace

std::optional<uint64_t> parse_byte_size(std::string_view text) {
  int shift = 0;
  for (auto& [unit, bits] : units)
    if (text.size() > unit.size() && text.substr(text.size() - unit.size()) == unit) {
      text.remove_suffix(unit.size());
      shift = bits;
      break;
    }
  if (text.empty() || text.size() > 19
      || !std::all_of(text.begin(), text.end(), [](unsigned char ch) { return std::isdigit(ch); }))
    return std::nullopt;
  auto n = std::stoull(std::string{text}); // 19 digits always fit
  if (n > (UINT64_MAX >> shift))
    return std::nullopt;
  return n << shift;
}

std::string format_byte_size(uint64_t bytes) {
  for (auto& [unit, bits] : units)
    if (bytes != 0 && bytes % (uint64_t{1} << bits) == 0)
      return std::to_string(bytes >> bits) + std::string{unit};
  return std::to_string(bytes);
}

std::string human_bytes(uint64_t bytes) {
  if (bytes < (uint64_t{1} << 20))
    return std::to_string((bytes + 512) >> 10) + " KiB";
  char text[32];
  if (bytes < (uint64_t{1} << 30))
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  else
    std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1 << 30));
  return text;
}

} // namespace svc::core
