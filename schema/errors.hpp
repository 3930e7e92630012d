#pragma once
// The error catalogue: every error code the API can answer with, its HTTP
// status, type, message template and doc anchor. It drives responses, the
// `/docs/errors` page and the error section of `openapi.yaml`.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace svc::schema {

/// The five `error.type` values.
enum class error_type : uint8_t { invalid_request, authentication, permission, rate_limit, internal };

/// Every `error.code` value.
enum class error_code : uint8_t {
  invalid_body,
  invalid_parameter,
  unknown_parameter,
  api_key_in_query,
  invalid_api_version,
  malformed_request,
  missing_api_key,
  invalid_api_key,
  api_key_revoked,
  insufficient_credits,
  endpoint_limit_reached,
  missing_scope,
  key_rotating,
  team_disabled,
  invalid_signature,
  resource_not_found,
  route_not_found,
  method_not_allowed,
  upload_too_slow,
  idempotency_key_in_use,
  invalid_state,
  url_expired,
  route_sunset,
  body_too_large,
  unsupported_media_type,
  range_not_satisfiable,
  headers_too_large,
  idempotency_key_reused,
  too_many_requests,
  too_many_uploads,
  internal_error,
  unavailable,
  storage_unavailable,
  owner_unavailable,
  insufficient_storage,
  generation_rejected,
  generation_failed,
  generation_timeout,
};

/// One row of the catalogue.
struct error_info {
  error_code code;
  std::string_view name;             ///< the wire code, also the doc anchor
  int status;                        ///< HTTP status
  error_type type;
  std::string_view message_template; ///< `{name}` placeholders filled from arguments
  std::string_view description;      ///< when it happens, for the docs page
};

/// All rows, in catalogue order.
const std::vector<error_info>& error_catalogue();

/// The row of `code`.
const error_info& info(error_code code);

/// The wire name of a type (`rate_limit`).
std::string_view to_string(error_type type);

/// The wire name of a code (`too_many_requests`).
std::string_view to_string(error_code code);

/// The code with this wire name, if any.
std::optional<error_code> error_code_from_name(std::string_view name);

/// A domain error ready to render: the code, its filled message, the
/// offending parameter (for `error.param`) and extra response headers.
struct api_error {
  error_code code;
  std::string message;
  std::string param; ///< empty when the error is not about one parameter
  int64_t retry_after = 0; ///< seconds for `Retry-After` when a bucket other than the request's refused; 0: none
};

/// Arguments for a message template, e.g. {{"bucket", "reads"}, {"seconds", "3"}}.
using message_args = std::map<std::string, std::string>;

/// Builds an error whose message is the code's template filled with `args`.
api_error make_api_error(error_code code, const message_args& args = {}, std::string param = {});

} // namespace svc::schema
