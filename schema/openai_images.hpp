#pragma once
// The bodies of the OpenAI-compatible image routes (`POST /v1/images/generations`
// and `/v1/images/edits`, as OpenAI's SDKs send them): OpenAI's fields mapped
// onto a `POST /v1/images` body, which `validate_image_request` then judges
// like any create's, and the `{created, data}` answer. Pure functions.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "schema/checked.hpp"

namespace svc::schema {

/// What `response_format` asks for: the signed output URL (OpenAI's default
/// for its dall-e models) or the output's bytes inline, base64-encoded.
enum class openai_format : uint8_t { url, b64_json };

/// An OpenAI request, read.
struct openai_image_request {
  /// `prompt`, `num_outputs`, `width`, `height` and `model` as sent: a `POST /v1/images` body.
  boost::json::object svc_body;
  openai_format format = openai_format::url;
};

/// Reads `prompt`, `n`, `size` (`WIDTHxHEIGHT` or `auto`), `model`,
/// `response_format` and `stream` of an OpenAI body; every other field
/// (`quality`, `style`, `user`, ...) is ignored, as OpenAI-compatible servers
/// do. Failures: `invalid_parameter` naming `size`, `response_format` or
/// `stream` (`true` asks for server-sent events, which Svc does not send).
/// What the create's own rules judge (prompt, n, model, the size's range) is
/// left to `validate_image_request` and `as_openai_error`.
checked<openai_image_request> read_openai_image_request(const boost::json::object& body);

/// The text parts of an edit's `multipart/form-data` body as the JSON body
/// `read_openai_image_request` reads: strings, but `n` as an integer and
/// `stream` as a boolean when they spell one (form-data carries no types).
boost::json::object openai_form_fields(const std::map<std::string, std::string>& parts);

/// An error about a field of the mapped `POST /v1/images` body told in the
/// OpenAI field it came from (`width` and `height` are `size`, `num_outputs`
/// is `n`), param and message; any other error unchanged.
api_error as_openai_error(api_error e);

/// `{created, data: [{url} | {b64_json}]}`, one item per value, in output order.
boost::json::object openai_images_view(int64_t created_unix, const std::vector<std::string>& values,
                                       openai_format format);

} // namespace svc::schema
