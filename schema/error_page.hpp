#pragma once
// The `/docs/errors` HTML page, generated from the error catalogue: one
// section per code, its anchor the code itself.

#include <string>

namespace svc::schema {

/// The whole page as HTML.
std::string error_page_html();

} // namespace svc::schema
