#pragma once
// A request body taken as a JSON object before its fields are read
// (`field_reader`): the media type, emptiness and JSON syntax checks every
// route with a JSON body shares.

#include <optional>
#include <string_view>

#include <boost/json/object.hpp>

#include "schema/checked.hpp"

namespace svc::schema {

/// Whether a route takes no body at all as `{}`: actions whose fields are all
/// optional do; creates and updates answer 400 `invalid_body`, since nothing
/// was sent that could be JSON.
enum class empty_body { refused, allowed };

/// `body` as a JSON object (at most 32 levels deep). `content_type` is the
/// header's value when one was sent. Failures: `invalid_body` (empty where
/// refused, not JSON, not an object), `unsupported_media_type` (a type other
/// than `application/json`; an empty body is not looked at).
checked<boost::json::object> parse_request_body(std::string_view body, std::optional<std::string_view> content_type,
                                                empty_body empty = empty_body::refused);

} // namespace svc::schema
