#pragma once
// Request bodies taken as JSON objects (`schema/request_body.hpp`), answering
// the catalogue error when they are not one; handlers read their fields with
// `schema::field_reader`.

#include <initializer_list>
#include <optional>
#include <string_view>

#include <boost/json/object.hpp>

#include "http/request_context.hpp"
#include "schema/request_body.hpp"

namespace svc::http {

/// Whether a route takes no body at all as `{}`.
using schema::empty_body;

/// The body as a JSON object, for callers that check the fields themselves;
/// nullopt after answering 400 `invalid_body` or 415.
std::optional<boost::json::object> parse_json_object(const context_ptr& ctx, empty_body empty = empty_body::refused);

/// The body as a JSON object with only `allowed` fields (read strictly, as
/// `schema::json_discipline::strict` says); nullopt after answering 400
/// `invalid_body`/`unknown_parameter` or 415.
std::optional<boost::json::object> read_json_object(const context_ptr& ctx,
                                                    std::initializer_list<std::string_view> allowed,
                                                    empty_body empty = empty_body::refused);

} // namespace svc::http
