#include "schema/errors.hpp"

namespace svc::schema {
namespace {

using t = error_type;
using c = error_code;

const std::vector<error_info> catalogue = {
  {c::invalid_body, "invalid_body", 400, t::invalid_request, "The request body could not be parsed: {detail}.",
   "The body is not a JSON object (JSON routes), or not a complete multipart/form-data body (uploads: broken framing, "
   "a part without a name, no closing boundary)."},
  {c::invalid_parameter, "invalid_parameter", 400, t::invalid_request, "Invalid value for '{param}': {detail}.",
   "A parameter has the wrong type or is out of range; `error.param` names it."},
  {c::unknown_parameter, "unknown_parameter", 400, t::invalid_request, "Unknown parameter '{param}'.",
   "The body or query carries a field the route does not accept; `error.param` names it."},
  {c::api_key_in_query, "api_key_in_query", 400, t::invalid_request,
   "API keys must not be sent in the query string ('{param}'); send the X-Api-Key header. The key was not used; consider rotating it.",
   "A key was passed as a query parameter (`api_key`, `key`, `apikey`, `access_token`). It is refused and never used."},
  {c::invalid_api_version, "invalid_api_version", 400, t::invalid_request,
   "'{version}' is not a valid Svc-Version. Valid versions: {valid}.",
   "The `Svc-Version` header names no published version."},
  {c::malformed_request, "malformed_request", 400, t::invalid_request, "The request is not valid HTTP/1.1: {detail}.",
   "The bytes received could not be parsed as an HTTP request; the connection is closed."},
  {c::missing_api_key, "missing_api_key", 401, t::authentication,
   "No API key provided. Send it in the X-Api-Key header.", "Neither `X-Api-Key` nor `Authorization: Bearer` was sent."},
  {c::invalid_api_key, "invalid_api_key", 401, t::authentication, "The API key is invalid, revoked or expired.",
   "The key is malformed, unknown, revoked, or past its `deactivate_at`."},
  {c::api_key_revoked, "api_key_revoked", 401, t::authentication, "This API key was revoked.",
   "The key was revoked (`POST /v1/api_keys/{id}/revoke` or `svcctl key revoke`); it is refused at once, whatever its rotation grace."},
  {c::insufficient_credits, "insufficient_credits", 402, t::invalid_request,
   "This request costs {required} credits; {available} are available.",
   "The team's available credits do not cover the cost; nothing was created or held."},
  {c::endpoint_limit_reached, "endpoint_limit_reached", 400, t::invalid_request,
   "This team has {count} webhook endpoints, the most it may have; delete one before creating another.",
   "A team may have `--max-endpoints-per-team` webhook endpoints (50 unless the operator set otherwise); nothing was created."},
  {c::missing_scope, "missing_scope", 403, t::permission,
   "This key has scope '{scope}'; {method} {route} requires '{required}'.",
   "The key authenticated, but its scope does not permit the route."},
  {c::key_rotating, "key_rotating", 403, t::permission,
   "This key was rotated and is inside its grace period; it can no longer manage API keys. Use the key that replaced it.",
   "A key with a `deactivate_at` keeps its other powers until then, but may not list, rotate or revoke keys, so a leaked key cannot evict its owner."},
  {c::team_disabled, "team_disabled", 403, t::permission,
   "This team was disabled by the operator at {disabled_at}; its API keys are refused until it is enabled again.",
   "The operator disabled the key's team (`svcctl team disable`): every request with any of its keys is refused "
   "until `svcctl team enable`. Jobs already accepted still finish and webhook deliveries continue."},
  {c::invalid_signature, "invalid_signature", 403, t::permission, "The URL signature is invalid.",
   "A signed output URL was altered (id, index, expiry or signature)."},
  {c::resource_not_found, "resource_not_found", 404, t::invalid_request, "No {kind} with id '{id}'.",
   "The id does not name a resource of this kind that belongs to the team."},
  {c::route_not_found, "route_not_found", 404, t::invalid_request, "No route for {method} {path}.",
   "No route matches the path."},
  {c::method_not_allowed, "method_not_allowed", 405, t::invalid_request,
   "{method} is not allowed on {path}; allowed: {allow}.",
   "The path exists but not for this method; the `Allow` header lists the methods that are."},
  {c::upload_too_slow, "upload_too_slow", 408, t::invalid_request,
   "The upload was too slow: after the first {window}, every {window} must bring {bytes} bytes, and the whole body must arrive within {deadline}.",
   "An upload body arrived slower than the minimum rate or not within the deadline per upload; the connection is closed."},
  {c::idempotency_key_in_use, "idempotency_key_in_use", 409, t::invalid_request,
   "A request with this Idempotency-Key is still being processed.",
   "Another request with the same `Idempotency-Key` is in flight; retry after it completes."},
  {c::invalid_state, "invalid_state", 409, t::invalid_request, "The {kind} '{id}' is {state}; {action} is not possible.",
   "The resource is in a state that does not allow the operation (for example cancelling a finished job)."},
  {c::url_expired, "url_expired", 410, t::invalid_request, "This URL expired at {expired_at}.",
   "A signed output URL is past its lifetime; the bytes are deleted."},
  {c::route_sunset, "route_sunset", 410, t::invalid_request, "{path} was retired on {sunset}; use {replacement}.",
   "A legacy path is requested on or after its sunset date."},
  {c::body_too_large, "body_too_large", 413, t::invalid_request, "The request body exceeds {limit} bytes.",
   "The body is larger than the route accepts (1 MiB for JSON, 20 MiB for uploads)."},
  {c::unsupported_media_type, "unsupported_media_type", 415, t::invalid_request, "{detail}",
   "The body's content type is not accepted by the route."},
  {c::range_not_satisfiable, "range_not_satisfiable", 416, t::invalid_request,
   "The range {range} lies outside the {bytes} bytes of this output.",
   "A `Range` request header asks for bytes past the end of an output; `Content-Range: bytes */<size>` gives its size."},
  {c::headers_too_large, "headers_too_large", 431, t::invalid_request,
   "The request line and headers exceed {limit} bytes.",
   "The request header section is larger than the server accepts; the connection is closed."},
  {c::idempotency_key_reused, "idempotency_key_reused", 422, t::invalid_request,
   "This Idempotency-Key was used with a different request body.",
   "The same `Idempotency-Key` was sent with another body within its retention."},
  {c::too_many_requests, "too_many_requests", 429, t::rate_limit,
   "Rate limit exceeded for bucket '{bucket}'. Retry in {seconds} seconds.",
   "The bucket of the endpoint class is empty; wait `Retry-After` seconds."},
  {c::too_many_uploads, "too_many_uploads", 429, t::rate_limit,
   "This team has {count} uploads in progress, its share of the server's upload slots; retry when one finishes.",
   "The team already holds half of the server's upload slots (`--max-uploads`); wait `Retry-After` seconds."},
  {c::internal_error, "internal_error", 500, t::internal, "An internal error occurred (request {request_id}).",
   "An unexpected fault; the request id helps the operator find it in the logs."},
  {c::unavailable, "unavailable", 503, t::internal, "The service is temporarily unavailable; retry shortly.",
   "A part of the service did not answer in time, or the server is shutting down."},
  {c::storage_unavailable, "storage_unavailable", 503, t::internal,
   "Stored data cannot be read right now; nothing was changed. Retry in a moment.",
   "The data store failed a read (no reader slot, an I/O error, damaged data). Never answered as a missing key or resource; `Retry-After` says when to try again, and `/readyz` is 503 meanwhile."},
  {c::owner_unavailable, "owner_unavailable", 503, t::internal,
   "The node that holds this team's data cannot be reached right now; nothing was changed there by this answer. Retry in a moment.",
   "In a cluster, the node owning the team's shard is down, unreachable, or moving the shard. `Retry-After` says when to try again. A create sent with an `Idempotency-Key` is safe to retry; one without may have been committed before its answer was lost."},
  {c::insufficient_storage, "insufficient_storage", 507, t::internal,
   "The server's storage is full; nothing was changed. Retry later.",
   "The data store is full (its map, `--map-size`, or the disk): writes are refused while reads go on. Deletes still commit, and writes work again as soon as the expiry sweeper, `--job-retention` or the operator frees room."},
  // The answers of the OpenAI-compatible routes, which wait for their job's end:
  // one code per way it can end without outputs, so an SDK's status classes hold.
  {c::generation_rejected, "generation_rejected", 400, t::invalid_request,
   "The image {id} was rejected by moderation: {detail}. Its credits were refunded.",
   "`POST /v1/images/generations` or `/v1/images/edits`: the job ended `moderation_rejected`, or `failed` with "
   "`failure.code` `moderation`; nothing is charged. Retrying the same prompt ends the same way."},
  {c::generation_failed, "generation_failed", 502, t::internal,
   "The image {id} ended as {status} ({failure_code}: {detail}); its credits were refunded.",
   "`POST /v1/images/generations` or `/v1/images/edits`: the job `failed` in the back end or `expired` in the "
   "queue; the message carries its `failure` code and message, as `GET /v1/images/{id}` shows them. Nothing is charged."},
  {c::generation_timeout, "generation_timeout", 504, t::internal,
   "The image {id} is still {status} after {wait}; it keeps running. Poll GET /v1/images/{id} for its outputs.",
   "`POST /v1/images/generations` or `/v1/images/edits`: the job did not end within `--openai-wait` (60 s by "
   "default). It is not cancelled: it is charged if it succeeds, and a retry with the same `Idempotency-Key` "
   "waits for the same job again."},
};

} // namespace

const std::vector<error_info>& error_catalogue() { return catalogue; }

const error_info& info(error_code code) { return catalogue[static_cast<std::size_t>(code)]; }

std::string_view to_string(error_type type) {
  switch (type) {
    case t::invalid_request: return "invalid_request";
    case t::authentication: return "authentication";
    case t::permission: return "permission";
    case t::rate_limit: return "rate_limit";
    default: return "internal";
  }
}

std::string_view to_string(error_code code) { return info(code).name; }

std::optional<error_code> error_code_from_name(std::string_view name) {
  for (auto& row : catalogue)
    if (row.name == name)
      return row.code;
  return std::nullopt;
}

api_error make_api_error(error_code code, const message_args& args, std::string param) {
  auto tmpl = info(code).message_template;
  std::string message;
  message.reserve(tmpl.size() + 32);
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    auto close = tmpl.find('}', i);
    if (tmpl[i] == '{' && close != std::string_view::npos) {
      std::string key{tmpl.substr(i + 1, close - i - 1)};
      if (auto it = args.find(key); it != args.end())
        message += it->second;
      else if (key == "param")
        message += param;
      i = close;
    } else {
      message.push_back(tmpl[i]);
    }
  }
  api_error e{code, std::move(message), std::move(param)};
  if (code == error_code::storage_unavailable || code == error_code::owner_unavailable)
    e.retry_after = 1;
  return e;
}

} // namespace svc::schema
