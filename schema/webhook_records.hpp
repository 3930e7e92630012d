#pragma once
// Webhook endpoints, the events they receive and the record of every attempt,
// as Svc stores them. `stored_json.hpp` gives their stored form,
// `webhook_views.hpp` their wire form (derived as `record_view.hpp` says).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe/enum.hpp>

#include "core/clock.hpp"
#include "schema/correlation.hpp"
#include "core/described.hpp"
#include "schema/stored_field.hpp"
#include "schema/view_field.hpp"

namespace svc::schema {

/// A team's HTTPS receiver and what it subscribes to.
struct webhook_endpoint_record {
  std::string id;      ///< `we_...`
  std::string team_id;
  std::string url;     ///< `https://...`
  std::vector<std::string> events;  ///< subscribed types (`["*"]` was expanded at create)
  std::string secret;               ///< `whsec_...`: signs every new delivery
  std::string previous_secret;      ///< kept until `previous_secret_expires_at`; empty when none
  std::optional<core::time_point> previous_secret_expires_at;
  bool is_active = true;
  int64_t consecutive_failures = 0; ///< failed attempts since the last success
  std::optional<core::time_point> last_success_at;
  std::optional<core::time_point> last_failure_at;
  std::optional<core::time_point> disabled_at; ///< set by auto-disable, cleared by re-enable
  std::map<std::string, std::string> metadata;
  core::time_point created_at;
  core::time_point updated_at;
};
SVC_DESCRIBE(webhook_endpoint_record, (id, team_id, url, events, secret, previous_secret, previous_secret_expires_at, is_active, consecutive_failures, last_success_at, last_failure_at, disabled_at, metadata, created_at, updated_at))
SVC_VIEW_OBJECT(webhook_endpoint_record, "webhook_endpoint")
SVC_VIEW_HIDDEN(webhook_endpoint_record, team_id)
SVC_VIEW_OWN(webhook_endpoint_record, secret) // `secret_preview`, then the secret only in the answers to create and rotate (webhook_views.cpp)
SVC_VIEW_HIDDEN(webhook_endpoint_record, previous_secret)

/// False for a negative failure count.
bool valid(const webhook_endpoint_record& e);

/// True if the endpoint subscribes to `type`.
bool subscribes(const webhook_endpoint_record& e, std::string_view type);

/// An event as minted: the envelope bytes every delivery sends unchanged.
struct event_record {
  std::string id;          ///< `evt_...`
  std::string team_id;
  std::string type;        ///< a v1.0 type
  std::string api_version; ///< the `Svc-Version` that minted it
  bool synthetic = false;  ///< a test fire (never listed by `GET /v1/events`)
  core::time_point created_at;
  std::string body;        ///< the serialized envelope
  schema::correlation correlation; ///< the request that caused it, sent with every delivery; none if no request did
};
SVC_DESCRIBE(event_record, (id, team_id, type, api_version, synthetic, created_at, body, correlation))
SVC_STORED_SINCE(event_record, correlation)

/// Why an attempt failed (`none` when it succeeded).
enum class delivery_error : uint8_t { none, http_4xx, http_5xx, timeout, connect_refused, tls_error, connect_error };
BOOST_DESCRIBE_ENUM(delivery_error, none, http_4xx, http_5xx, timeout, connect_refused, tls_error, connect_error)

/// The wire name (`connect_refused`); `none` has no wire form and gives "".
std::string_view to_string(delivery_error e);
/// The error with this wire name, if any.
std::optional<delivery_error> delivery_error_from_name(std::string_view name);

/// Attempts per delivery: the first and four retries, then the dead letter.
inline constexpr int max_delivery_attempts = 5;

/// Bytes of a receiver's answer kept on a delivery row.
inline constexpr std::size_t stored_response_bytes = 1024;

/// A delivery's status as its view shows it: `succeeded` or `failed`.
inline std::string_view delivery_status(bool succeeded) { return succeeded ? "succeeded" : "failed"; }

/// One attempt to deliver one event to one endpoint (key `we_id/dlv_id`).
struct delivery_record {
  std::string id;          ///< `dlv_...`
  std::string endpoint_id;
  std::string team_id;
  std::string event_id;
  std::string event_type;
  int attempt = 1;         ///< 1..5
  bool succeeded = false;
  std::optional<int> response_status; ///< absent for transport errors
  delivery_error error = delivery_error::none;
  std::string error_detail;  ///< why, in words (never a secret)
  std::string response_body; ///< first 1 KiB of the answer
  int64_t duration_ms = 0;
  bool is_terminal = false;    ///< no attempt follows (success or attempt 5)
  bool is_dead_letter = false; ///< attempt 5 failed
  std::optional<core::time_point> next_attempt_at;
  core::time_point created_at;
};
SVC_DESCRIBE(delivery_record, (id, endpoint_id, team_id, event_id, event_type, attempt, succeeded, response_status, error, error_detail, response_body, duration_ms, is_terminal, is_dead_letter, next_attempt_at, created_at))
SVC_VIEW_OBJECT(delivery_record, "webhook_delivery")
SVC_VIEW_HIDDEN(delivery_record, team_id)
SVC_VIEW_KEY(delivery_record, succeeded, "status")
SVC_VIEW_FORMAT(delivery_record, succeeded, delivery_status) // `succeeded` or `failed`
SVC_VIEW_KEY(delivery_record, error, "error_class")
SVC_VIEW_FORMAT(delivery_record, error, name_or_null) // null when it succeeded
SVC_VIEW_KEY(delivery_record, error_detail, "error_message")
SVC_VIEW_FORMAT(delivery_record, error_detail, null_if_empty)

/// False for a response status outside 100..999.
bool valid(const delivery_record& d);

/// An attempt still to make (key `we_id/task_id`): written before the state
/// change that caused it is acknowledged, rewritten with each retry, erased
/// when the delivery succeeds or dies.
struct delivery_task {
  std::string id;          ///< ULID of the delivery (one per event and endpoint)
  std::string endpoint_id;
  std::string event_id;
  int attempt = 1;         ///< the attempt to make next
  core::time_point due_at; ///< not before
};
SVC_DESCRIBE(delivery_task, (id, endpoint_id, event_id, attempt, due_at))

/// False for an attempt outside 1..`max_delivery_attempts`.
bool valid(const delivery_task& t);

} // namespace svc::schema
