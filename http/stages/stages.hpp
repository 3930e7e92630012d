#pragma once
// The stages of the public request pipeline. Each checks one thing and
// records the first failure in `ctx.error`; `pipeline.cpp` runs them in order.

#include <functional>

#include "http/request_context.hpp"

namespace svc::http {

/// Gives the request its `req_` id (on every response and in every error) and splits its target.
void assign_request_id(request_context& ctx);

/// Legacy paths (`/v1/generations...`): sets `ctx.legacy` (a 308 to the new
/// path before the sunset date, 410 `route_sunset` from it on) and stops.
bool check_legacy_path(request_context& ctx);

/// Splits path and query and finds the route; 404 `route_not_found` or 405 `method_not_allowed`.
bool match_route(request_context& ctx, const router& routes);

/// Validates `Svc-Version` when sent; 400 `invalid_api_version`.
bool check_version(request_context& ctx);

/// Refuses keys in the query string, unused; 400 `api_key_in_query`.
bool refuse_query_key(request_context& ctx);

/// Resolves `X-Api-Key` or `Authorization: Bearer` to a live key and its team; 401s.
bool authenticate(request_context& ctx);

/// Why a request to the admin listener is not authorised (missing or wrong
/// bearer token); nullopt when its token is `token`.
std::optional<schema::error_code> admin_token_error(const http_request& req, std::string_view token);

/// The key as sent, from X-Api-Key or a Bearer authorization; empty if none.
std::string_view presented_key(const http_request& req);

/// Checks the key's scope against the route's; 403 `missing_scope`.
bool check_scope(request_context& ctx);

/// Takes a token from the team's bucket of the route class (decided on the
/// spot from the bucket's copy when it can be: rate_allowance.hpp), or the
/// client address's anonymous bucket, then continues on an asio thread; 429 when empty.
void take_rate_token(const context_ptr& ctx, std::function<void(const context_ptr&)> next);

/// Charges the takes decided from copies to their buckets (armed after each
/// such take; also at shutdown, before the buckets save their levels).
void charge_buckets(services& svc);

} // namespace svc::http
