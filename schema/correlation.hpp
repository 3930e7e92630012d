#pragma once
// The request a piece of work came from, as the work carries it on: kept on
// the job and its events, and sent with every webhook delivery and back-end
// call it causes, so a client or an operator can follow one request across
// services.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/json/value.hpp>

#include "schema/trace_context.hpp"
#include "core/described.hpp"
#include "schema/stored_field.hpp"

namespace svc::schema {

struct correlation {
  std::string request_id;            ///< the client's valid `X-Request-Id`, else Svc's `req_` id; empty: none
  std::optional<trace_parent> trace; ///< the request's valid `traceparent`, if it had one
};
SVC_DESCRIBE(correlation, (request_id, trace))

/// The correlation of a request: its client's id if it gave a valid one (so
/// the client finds its own id downstream), else Svc's own.
correlation correlation_of(const std::string& client_request_id, const std::string& request_id,
                           const std::optional<trace_parent>& trace);

/// The headers of one outbound call made for the work: `X-Request-Id`, and
/// with a trace a `traceparent` of a fresh child span. Nothing for none.
std::vector<std::pair<std::string, std::string>> outbound_headers(const correlation& c);

/// The stored form: null for none, else `{request_id, trace_id?, trace_flags?}`.
boost::json::value encode(const correlation& c);
/// Reads the stored form; a missing (records stored before it existed) or null
/// value is none. False when a present field is invalid: it would be sent on.
bool decode(const boost::json::value* v, correlation& c);

/// Stored flat and as null for none (not as its described members): the form
/// jobs and events have carried since it was kept.
template <>
struct own_stored_form<correlation> : std::true_type {};

} // namespace svc::schema
