#pragma once
// Request bodies taken as JSON objects (`schema/request_body.hpp`), answering
// the catalogue error when they are not one; handlers read their fields with
// `schema::field_reader` or a schema validator.

#include <initializer_list>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/json/object.hpp>

#include "http/request_context.hpp"
#include "http/respond.hpp"
#include "schema/field_reader.hpp"
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

/// What `read(schema::field_reader&)` reads, strictly, from a body with only
/// `allowed` fields (the operator routes); nullopt after answering the body's
/// fault or the reader's first failure (400 or 415).
template <class Read>
auto read_fields(const context_ptr& ctx, std::initializer_list<std::string_view> allowed, Read read,
                 empty_body empty = empty_body::refused)
  -> std::optional<std::invoke_result_t<Read&, schema::field_reader&>> {
  auto body = read_json_object(ctx, allowed, empty);
  if (!body)
    return std::nullopt;
  schema::field_reader fields{*body, schema::json_discipline::strict};
  auto read_value = read(fields);
  if (fields.error()) {
    reply_error(ctx, *fields.error());
    return std::nullopt;
  }
  return read_value;
}

/// A request body and what a schema validator made of it.
template <class Request>
struct valid_body {
  boost::json::object json; ///< as parsed: what an idempotency claim fingerprints
  Request request;
};

/// The body as a JSON object that `validate` (object -> `schema::checked<Request>`)
/// accepts; nullopt after answering 415, 400 `invalid_body` or the validator's error.
template <class Validate,
          class Request = std::decay_t<decltype(std::declval<Validate&>()(boost::json::object{}).value())>>
std::optional<valid_body<Request>> read_valid_body(const context_ptr& ctx, Validate validate,
                                                   empty_body empty = empty_body::refused) {
  auto body = parse_json_object(ctx, empty);
  if (!body)
    return std::nullopt;
  auto request = validate(*body);
  if (!request) {
    reply_error(ctx, request.error());
    return std::nullopt;
  }
  return valid_body<Request>{std::move(*body), std::move(request.value())};
}

} // namespace svc::http
