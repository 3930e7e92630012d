#pragma once
// The validated bodies of the webhook endpoint routes (create, PATCH, test,
// replay): decisions.md's rules applied to untrusted JSON as pure functions.
// Whether a receiver URL's address may be used is `schema/address_policy.hpp`'s check
// (the handlers' at create, the webhook client's on every resolved address);
// here a URL is only a bounded string.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "core/clock.hpp"
#include "schema/checked.hpp"

namespace svc::schema {

/// Longest receiver URL accepted, in characters.
inline constexpr std::size_t max_webhook_url_chars = 2048;

/// A valid `POST /v1/webhook_endpoints` body.
struct webhook_endpoint_request {
  std::string url;                             ///< not yet checked against the address policy
  std::vector<std::string> events;             ///< v1.0 types, unique; `["*"]` expanded
  std::map<std::string, std::string> metadata; ///< empty when absent
};

/// A valid `PATCH /v1/webhook_endpoints/{id}` body: the fields present, at least one.
struct webhook_endpoint_update {
  std::optional<std::string> url;
  std::optional<std::vector<std::string>> events;               ///< `["*"]` expanded
  std::optional<std::map<std::string, std::string>> metadata;   ///< replaces the whole object
  std::optional<bool> is_active;
};

/// Checks a create body: `url` and `events` required, `metadata` optional.
/// Failures: `unknown_parameter` naming the first unknown field, else
/// `invalid_parameter` naming the first bad one (`events[2]`, `metadata.<key>`).
checked<webhook_endpoint_request> validate_webhook_endpoint_create(const boost::json::object& body);

/// Checks a PATCH body: any of `url`, `events`, `metadata`, `is_active`; the
/// same failures, and `invalid_parameter` (no param) when it names none.
checked<webhook_endpoint_update> validate_webhook_endpoint_update(const boost::json::object& body);

/// Checks a test-fire body `{event_type}` (a v1.0 type); the type.
checked<std::string> validate_test_fire_request(const boost::json::object& body);

/// Checks a replay body `{since}`: an ISO 8601 UTC timestamp not after `now`; the time.
checked<core::time_point> validate_replay_request(const boost::json::object& body, core::time_point now);

} // namespace svc::schema
