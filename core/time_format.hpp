#pragma once
// Wall-time text forms used on the wire: ISO 8601 UTC with milliseconds,
// calendar dates (`2026-08-04`) and HTTP dates (RFC 9110 IMF-fixdate).

#include <optional>
#include <string>
#include <string_view>

#include "core/clock.hpp"

namespace svc::core {

/// `2026-11-21T10:15:30.123Z`.
std::string format_iso8601(time_point t);

/// Parses `YYYY-MM-DDTHH:MM:SS[.fff]Z` (also `+00:00`); nullopt otherwise.
std::optional<time_point> parse_iso8601(std::string_view text);

/// Parses a calendar date `YYYY-MM-DD` as its UTC midnight; nullopt otherwise.
std::optional<time_point> parse_date(std::string_view text);

/// `Tue, 04 Aug 2026 00:00:00 GMT`.
std::string format_http_date(time_point t);

/// Whole seconds since the Unix epoch.
int64_t to_unix_seconds(time_point t);

} // namespace svc::core
