#pragma once
// What a client may tell us about the request's place in its own tracing:
// an `X-Request-Id` of its own and a W3C `traceparent`. Both are checked
// before use, since they end up in logs and answers. Svc's own `req_` id
// stays the request's id in answers.

#include <optional>
#include <string>
#include <string_view>

#include "core/described.hpp"

namespace svc::schema {

/// The longest `X-Request-Id` kept.
inline constexpr std::size_t max_client_request_id = 128;

/// True for 1 to 128 characters of `A-Z a-z 0-9 - _ . :` (anything else could
/// forge log fields or headers; such an id is ignored), unless it looks like
/// a secret: an API key, or 32 or more hex digits only (a key's secret, the
/// admin token). A client that sends one as its id must not find it logged.
bool valid_client_request_id(std::string_view id);

/// What Svc keeps of a `traceparent` header: the trace it belongs to and its
/// flags, which the calls Svc makes for the request pass on unchanged.
struct trace_parent {
  std::string trace_id; ///< 32 lowercase hex digits, not all zero
  std::string flags;    ///< 2 lowercase hex digits (`01`: sampled)
};
SVC_DESCRIBE(trace_parent, (trace_id, flags))

/// Parses `traceparent` per W3C Trace Context: `00-<32 hex>-<16 hex>-<2 hex>`,
/// lowercase, ids not all zero; a later version may append `-...` fields
/// (ignored); version `ff` is invalid. Nothing when it is not valid.
std::optional<trace_parent> parse_traceparent(std::string_view header);

/// True when `t` holds what `parse_traceparent` would have kept (a stored one
/// is checked again: it is sent on in headers).
bool valid_trace(const trace_parent& t);

/// The `traceparent` of a call Svc makes for the request: version 00, the same
/// trace and flags, and `span_id` (16 lowercase hex digits) as the parent id.
std::string child_traceparent(const trace_parent& parent, std::string_view span_id);

/// A fresh random span id: 16 lowercase hex digits, not all zero.
std::string new_span_id();

} // namespace svc::schema
