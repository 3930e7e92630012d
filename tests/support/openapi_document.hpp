#pragma once
// schema/openapi.yaml as the tests see it: parsed by a real YAML parser
// (yaml-cpp) into a JSON value, so route tables, error catalogues and
// response validation all walk one document instead of reading lines.

#include <boost/json/value.hpp>

#include <string>

namespace svc::test {

/// Parses the YAML file at `path` into JSON: mappings become objects,
/// sequences arrays; plain scalars become null, booleans, integers or doubles
/// by YAML 1.2's core schema, quoted scalars stay strings. Throws
/// std::runtime_error (with the parser's line and column) when the file is
/// not valid YAML or cannot be read.
boost::json::value load_yaml_as_json(const std::string& path);

/// Parses YAML text the same way (`what` names it in errors).
boost::json::value parse_yaml_as_json(const std::string& text, const std::string& what = "YAML text");

} // namespace svc::test
