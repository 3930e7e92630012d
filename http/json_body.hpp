#pragma once
// Request bodies taken as JSON objects (`schema/request_body.hpp`), answering
// the catalogue error when they are not one; handlers read their fields with
// `schema::field_reader`.

#include <optional>

#include <boost/json/object.hpp>

#include "http/request_context.hpp"
#include "schema/request_body.hpp"

namespace svc::http {

/// The body as a JSON object; nullopt after answering 400 `invalid_body` or 415.
std::optional<boost::json::object> parse_json_object(const context_ptr& ctx,
                                                     schema::empty_body empty = schema::empty_body::refused);

/// True for a body that is absent or `{}`; false after answering 400
/// `invalid_body`/`unknown_parameter` or 415. For actions that take no fields.
bool read_empty_object(const context_ptr& ctx);

} // namespace svc::http
