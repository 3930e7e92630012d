#pragma once
// What a client may tell us about the request's place in its own tracing:
// an `X-Request-Id` of its own and a W3C `traceparent`. Both are checked
// before use (they end up in logs and in headers we send on), and both are
// passed on, with the request, to the webhook deliveries and back-end calls
// it causes. Svc's own `req_` id stays the request's id in answers.

#include <optional>
#include <string>
#include <string_view>

namespace svc::schema {

/// The longest `X-Request-Id` kept.
inline constexpr std::size_t max_client_request_id = 128;

/// True for 1 to 128 characters of `A-Z a-z 0-9 - _ . :` (anything else could
/// forge log fields or headers; such an id is ignored), unless it looks like
/// a secret: an API key, or 32 or more hex digits only (a key's secret, the
/// admin token). A client that sends one as its id must not find it logged.
bool valid_client_request_id(std::string_view id);

/// A `traceparent` header's trace: the trace id and flags we keep; the parent id is the caller's span.
struct trace_parent {
  std::string trace_id; ///< 32 lowercase hex digits, not all zero
  std::string flags;    ///< 2 lowercase hex digits
};

/// Parses `traceparent` per W3C Trace Context: `00-<32 hex>-<16 hex>-<2 hex>`,
/// lowercase, ids not all zero; a later version may append `-...` fields
/// (ignored); version `ff` is invalid. Nothing when it is not valid.
std::optional<trace_parent> parse_traceparent(std::string_view header);

/// The `traceparent` a call we make on behalf of `trace` sends: the same trace
/// and flags, with `span_id` (16 lowercase hex digits) as its parent.
std::string format_traceparent(const trace_parent& trace, std::string_view span_id);

/// What travels with a request's work to the calls it causes later (durably, in
/// job records): empty fields when the client sent nothing.
struct request_origin {
  std::string request_id;  ///< the client's `X-Request-Id` if valid, else Svc's `req_` id
  std::string traceparent; ///< a valid incoming `traceparent` as received, or empty

  bool empty() const { return request_id.empty() && traceparent.empty(); }
};

} // namespace svc::schema
