#pragma once
// What the Cog stand-in's model takes (engines.md 2.6): its /openapi.json,
// whose components.schemas.Input a client maps its parameters from, and the
// check a create's `input` meets before a run, with FastAPI's 422 details.

#include <variant>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "cog_server.hpp"

namespace svc::test {

/// The OpenAPI 3.0.2 document of a model of `kind`.
boost::json::object cog_openapi(cog_model_kind kind);

/// `input` (null counts as `{}`) with unknown keys dropped, defaults filled in and values coerced
/// to their declared types; or the `detail` list of a 422: each missing, mistyped or out-of-range field.
std::variant<boost::json::object, boost::json::array> cog_check_input(cog_model_kind kind,
                                                                      const boost::json::value& input);

} // namespace svc::test
