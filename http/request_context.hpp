#pragma once
// Everything one request accumulates on its way through the pipeline: its id,
// the matched route, the applied version, the caller's key and team, the
// first error a stage found, and the rate-limit verdict.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "actors/messages.hpp"
#include "http/query.hpp"
#include "http/router.hpp"
#include "http/services.hpp"
#include "http/transport.hpp"
#include "schema/errors.hpp"
#include "schema/correlation.hpp"

namespace svc::http {

/// The answer to a legacy path: its deprecation headers, and `Location` while it redirects.
struct legacy_redirect {
  std::vector<std::pair<std::string, std::string>> headers;
};

/// The request's route-specific phase: public API (rate limited) or admin.
enum class listener_kind { api, admin, engine };

struct request_context {
  request_context(services& s, listener_kind k, http_request r, peer_info p, responder d)
    : svc{s}, kind{k}, req{std::move(r)}, peer{std::move(p)}, done{std::move(d)} {}

  services& svc;
  listener_kind kind;
  http_request req;
  peer_info peer;
  responder done;

  std::chrono::steady_clock::time_point received = std::chrono::steady_clock::now();
  std::string request_id;                       ///< `req_<ULID>`
  std::string client_request_id;                ///< the client's valid `X-Request-Id`, or empty
  std::optional<schema::trace_parent> trace;    ///< from a valid `traceparent`
  std::string_view path;                        ///< target without the query (views `req`)
  query_params query;
  route_match match;                            ///< the route, or why there is none
  std::string version;                          ///< applied Svc-Version; empty until known
  std::shared_ptr<const schema::api_key_record> key; ///< the authenticated key
  std::shared_ptr<const schema::team_record> team;   ///< its team
  uint64_t team_writes = 0; ///< the store's writes of team records before `team` was read (rate_allowance.hpp)
  std::optional<schema::api_error> error;       ///< the first failure of a stage
  std::optional<legacy_redirect> legacy;        ///< set for a legacy path (308, or 410 with `error`)
  std::optional<actors::rate_decision> rate;    ///< the bucket drawn from
  std::shared_ptr<body_source> body;            ///< the unread body of a route that streams it; else null
  std::string_view error_code;                  ///< the catalogue code of an error answer, once answered
  bool reports_readiness = false; ///< a probe's "not ready" is a state, not a failure: kept out of recent_5xx
  bool replied = false;

  /// A captured path segment (`{id}`), or empty.
  const std::string& param(std::string_view name) const;
  /// The value of request header `name` (the first, if repeated), if present.
  std::optional<std::string_view> header(std::string_view name) const;
  /// What the work this request starts carries on to webhooks and back ends.
  schema::correlation correlation() const { return schema::correlation_of(client_request_id, request_id, trace); }
  /// The matched route (only valid after a successful match).
  const route& matched() const { return *match.matched; }
};

using context_ptr = std::shared_ptr<request_context>;

} // namespace svc::http
