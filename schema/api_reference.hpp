#pragma once
// schema/openapi.yaml as compiled into the binary, and the `/docs` reference
// page rendered from it at build time (schema/api_reference_gen.cpp writes
// both into a generated source file), so svcd never reads the spec from disk.

#include <string_view>

namespace svc::schema {

/// The bytes of schema/openapi.yaml as it was when svcd was built.
std::string_view openapi_yaml();

/// The HTML reference page: the operations grouped by tag, each with method, path, summary, parameters and
/// responses. Self-contained: inline style, no script, no outside asset.
std::string_view api_reference_html();

} // namespace svc::schema
