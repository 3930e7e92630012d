#pragma once
// API key scopes: read < write < full.

#include <cstdint>
#include <optional>
#include <string_view>

#include <boost/describe/enum.hpp>

namespace svc::schema {

/// What a key may do. `none` marks routes that need no key.
enum class scope : uint8_t { none, read, write, full };
BOOST_DESCRIBE_ENUM(scope, none, read, write, full)

/// True if a key of scope `have` may call a route requiring `need`.
inline bool permits(scope have, scope need) { return static_cast<uint8_t>(have) >= static_cast<uint8_t>(need); }

/// The wire name (`read`).
std::string_view to_string(scope s);

/// Parses `read` | `write` | `full`.
std::optional<scope> scope_from_name(std::string_view name);

} // namespace svc::schema
