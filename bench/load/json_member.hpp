#pragma once
// Reading one field out of an answer's JSON body without throwing: svcd's
// answers under load may be errors, cut short or not JSON at all.

#include <optional>
#include <string>

namespace svc::bench {

/// The string member `name` of the JSON object in `body`, if there is one.
std::optional<std::string> json_string_member(const std::string& body, const char* name);

} // namespace svc::bench
