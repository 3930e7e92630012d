#pragma once
// Durations as operators write them: `250ms`, `5s`, `2m`, `24h`, `30d`.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace svc::core {

using duration = std::chrono::milliseconds;

/// Parses one duration (a non-negative integer and a unit ms|s|m|h|d).
std::optional<duration> parse_duration(std::string_view text);

/// Parses a comma-separated list of durations (`5s,30s,2m,10m`).
std::optional<std::vector<duration>> parse_duration_list(std::string_view text);

/// The shortest exact text for `d` (`90s` -> `90s`, `120000ms` -> `2m`).
std::string format_duration(duration d);

} // namespace svc::core
