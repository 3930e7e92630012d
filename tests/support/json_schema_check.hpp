#pragma once
// Checks a JSON value against an OpenAPI 3.1 schema object (the subset
// schema/openapi.yaml uses): $ref, type (a name or a list, `null` included),
// nullable, const, enum, properties, required, additionalProperties, items,
// minItems/maxItems, pattern, minLength/maxLength, minimum/maximum,
// exclusiveMinimum/exclusiveMaximum, format date-time and date, and
// allOf/anyOf/oneOf. Keywords it does not know are ignored.

#include <boost/json/value.hpp>

#include <optional>
#include <string>

namespace svc::test {

/// The first way `instance` departs from `schema`, as "body<JSON pointer>: <what>",
/// or nullopt when it conforms. `$ref`s (`#/...`) resolve inside `document`.
std::optional<std::string> schema_mismatch(const boost::json::value& document, const boost::json::value& schema,
                                           const boost::json::value& instance);

/// The value `ref` (`#/components/...`) points to in `document`; throws std::runtime_error when it points
/// nowhere.
const boost::json::value& resolve_ref(const boost::json::value& document, const boost::json::value& ref);

} // namespace svc::test
