#pragma once
// Reading fields out of JSON answers without a cascade of checks: a missing
// field or a wrong type reads as empty, so the assertion that follows fails
// with a readable value instead of an exception.

#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace svc::e2e {

/// The value at a dotted path (`error.code`, `data.0.id`), or nullptr.
const boost::json::value* json_at(const boost::json::value& v, std::string_view path);
/// The string at `path`, or "" when absent or not a string.
std::string json_str(const boost::json::value& v, std::string_view path);
/// The integer at `path`, if it is one.
std::optional<std::int64_t> json_int(const boost::json::value& v, std::string_view path);
/// The boolean at `path`, if it is one.
std::optional<bool> json_bool(const boost::json::value& v, std::string_view path);
/// Whether `path` exists and holds JSON null.
bool json_is_null(const boost::json::value& v, std::string_view path);
/// The number of elements of the array at `path`; -1 when it is no array.
long json_size(const boost::json::value& v, std::string_view path);
/// The string at `field` of each element of a list answer's `data`, in list order.
std::vector<std::string> data_strings(const boost::json::value& list, std::string_view field = "id");

} // namespace svc::e2e
