#pragma once
// Text as HTML character data or an attribute value, for the pages svcd
// serves (/docs/errors, /docs).

#include <string>
#include <string_view>

namespace svc::schema {

/// `s` with <, >, & and " replaced by their entities.
std::string escape_html(std::string_view s);

} // namespace svc::schema
