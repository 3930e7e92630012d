#pragma once
// Query strings: `a=1&b=x%20y` -> ordered, percent-decoded pairs, split and
// decoded by Boost.URL.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace svc::http {

using query_params = std::vector<std::pair<std::string, std::string>>;

/// Parses a query string; `+` is a space; malformed escapes and bytes that
/// RFC 3986 does not allow in a query (raw UTF-8, `#`, `\`) are kept literally.
query_params parse_query(std::string_view query);

/// The first value of `name`, if present.
std::optional<std::string> query_value(const query_params& q, std::string_view name);

} // namespace svc::http
