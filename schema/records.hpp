#pragma once
// The records Svc stores, as plain structs. Their stored form (`stored_json.hpp`)
// and their wire form (`record_view.hpp`) derive from their description; the
// lines after each struct say where either differs from the members.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe/enum.hpp>

#include "core/clock.hpp"
#include "schema/rate_buckets.hpp"
#include "schema/scopes.hpp"
#include "core/described.hpp"
#include "schema/stored_field.hpp"
#include "schema/view_field.hpp"

namespace svc::schema {

/// A team: the owner of keys, buckets, credits and resources.
/// A team's claim on the render engines, against other teams' (the fair queue).
struct render_share {
  double weight = 1;          ///< its share of engine seconds against others' weights
  int64_t max_concurrent = 0; ///< renders at once; 0: no cap of its own
  /// The default: stored records leave it out.
  bool empty() const { return weight == 1 && max_concurrent == 0; }
};
SVC_DESCRIBE(render_share, (weight, max_concurrent))

/// The bounds an operator may set.
constexpr double min_render_weight = 0.01;
constexpr double max_render_weight = 1000;
constexpr int64_t max_concurrent_renders = 10000;

struct team_record {
  std::string id;                  ///< `team_...`
  std::string name;
  std::string owner_email;
  std::string default_api_version; ///< applied when a request has no Svc-Version
  int64_t balance_low_threshold = 0; ///< credits; usage.balance_low fires at or below
  core::time_point created_at;
  /// Operator overrides of bucket classes, by class name (`reads`).
  std::map<std::string, bucket_limits> rate_limit_overrides;
  /// Set while an operator has disabled the team: every API request with its keys is refused.
  std::optional<core::time_point> disabled_at;
  std::string disabled_reason; ///< the operator's note on the disable (never shown to the team); empty when enabled
  render_share renders;        ///< set by `svcctl team limits --weight/--max-concurrent`
};
SVC_DESCRIBE(team_record, (id, name, owner_email, default_api_version, balance_low_threshold, created_at, rate_limit_overrides, disabled_at, disabled_reason, renders))
SVC_STORED_SINCE(team_record, disabled_at) // teams stored before disabling existed are enabled
SVC_STORED_SINCE(team_record, disabled_reason)
SVC_VIEW_OBJECT(team_record, "team")
SVC_VIEW_HIDDEN(team_record, disabled_at) // the admin listener adds both; the team never sees them
SVC_VIEW_HIDDEN(team_record, disabled_reason)
SVC_STORED_WHEN_SET(team_record, renders) // teams stored before it, and those that never set it, have the default
SVC_VIEW_HIDDEN(team_record, renders)     // the admin listener adds it
SVC_VIEW_ORDER(team_record, (id, name, owner_email, default_api_version, balance_low_threshold, rate_limit_overrides, created_at))

/// False for a team no operator could have stored: an override out of
/// bounds, an overlong reason, or a reason on an enabled team.
bool valid(const team_record& t);

/// The longest `disabled_reason` an operator may give, in bytes.
constexpr std::size_t max_disabled_reason = 500;

/// A team's credits.
struct balance_record {
  std::string team_id;
  int64_t available = 0; ///< spendable credits
  int64_t held = 0;      ///< reserved by jobs in flight
  std::optional<core::time_point> low_event_at; ///< last `usage.balance_low` (debounce)
};
SVC_DESCRIBE(balance_record, (team_id, available, held, low_event_at))
SVC_STORED_SINCE(balance_record, low_event_at) // balances stored before webhooks have none
SVC_VIEW_OBJECT(balance_record, "balance")
SVC_VIEW_HIDDEN(balance_record, team_id)      // the caller's own
SVC_VIEW_HIDDEN(balance_record, low_event_at) // debounce bookkeeping

/// Where a job's credits stand: held while it runs, then charged or refunded once.
enum class hold_status : uint8_t { held, charged, refunded };
BOOST_DESCRIBE_ENUM(hold_status, held, charged, refunded)

/// `held`, `charged` or `refunded`.
std::string_view to_string(hold_status s);

/// The status named `name`, if any.
std::optional<hold_status> hold_status_from_name(std::string_view name);

/// The credits a team's ledger holds for one job (key `team_id/job_id`).
struct hold_record {
  std::string team_id;
  std::string job_id;
  int64_t credits = 0;
  hold_status status = hold_status::held;
  core::time_point updated_at; ///< last status change
};
SVC_DESCRIBE(hold_record, (team_id, job_id, credits, status, updated_at))

/// How a key shows once its plaintext is gone: `svc_live_...` and its last four hex digits.
inline std::string key_preview(const std::string& last4) { return "svc_live_..." + last4; }

/// An API key. Only the SHA-256 of its secret is stored.
struct api_key_record {
  std::string id;          ///< `key_...`
  std::string team_id;
  scope key_scope = scope::read;
  std::string secret_sha256; ///< hex SHA-256 of the 64-hex secret
  std::string last4;         ///< last four hex digits, for recognising a key
  core::time_point created_at;
  std::optional<core::time_point> deactivate_at; ///< set by rotation
  bool deactivated = false;  ///< set when the grace timer fired
  std::string replaced_by;   ///< id of the key that rotation created
  std::optional<core::time_point> revoked_at; ///< set by an immediate revoke; the key is refused from then on
};
SVC_DESCRIBE(api_key_record, (id, team_id, key_scope, secret_sha256, last4, created_at, deactivate_at, deactivated, replaced_by, revoked_at))
SVC_STORED_KEY(api_key_record, key_scope, "scope")
SVC_STORED_SINCE(api_key_record, revoked_at) // keys stored before revocation existed were never revoked
SVC_VIEW_OBJECT(api_key_record, "api_key")
SVC_VIEW_KEY(api_key_record, key_scope, "scope")
SVC_VIEW_HIDDEN(api_key_record, secret_sha256)
SVC_VIEW_KEY(api_key_record, last4, "preview")
SVC_VIEW_FORMAT(api_key_record, last4, key_preview) // `svc_live_...` and the last four
SVC_VIEW_HIDDEN(api_key_record, deactivated) // the keyring's bookkeeping
SVC_VIEW_HIDDEN(api_key_record, replaced_by)
SVC_VIEW_ORDER(api_key_record, (id, team_id, key_scope, last4, deactivate_at, revoked_at, created_at))

/// False for a key without a scope (`none` is only what a missing key has).
bool valid(const api_key_record& k);

/// A style adapter in the catalogue.
struct lora_record {
  std::string id;   ///< `lora_...`
  std::string slug; ///< unique, `[a-z0-9-]`
  std::string name;
  std::string description;
  std::vector<std::string> keywords; ///< prompt words that select it automatically
  bool builtin = false;
  core::time_point created_at;
};
SVC_DESCRIBE(lora_record, (id, slug, name, description, keywords, builtin, created_at))
SVC_VIEW_OBJECT(lora_record, "lora")

/// A header an engine is called with (a proxy's auth): its value is secret.
struct engine_header {
  std::string name;
  std::string value;
};
SVC_DESCRIBE(engine_header, (name, value))

/// The operator's change to an engine while svcd ran (`svcctl engine
/// add|drain|resume|remove`), kept so that a restart keeps it: an engine
/// added then (with what it is), or one of the engines file's drained or
/// taken out. Never shown whole: its headers are secret.
struct engine_record {
  std::string name;
  bool added = false;                 ///< added at run time: the fields up to `headers` say what it is
  std::string kind;                   ///< `comfyui`, `cog`, `a1111`, `procedural`
  std::string url;                    ///< as given, credentials included
  int64_t slots = 1;
  std::vector<std::string> models;    ///< catalogue model ids
  std::vector<engine_header> headers;
  bool draining = false;              ///< takes no new renders
  bool removed = false;               ///< one of the file's engines, taken out
  core::time_point changed_at;
};
SVC_DESCRIBE(engine_record, (name, added, kind, url, slots, models, headers, draining, removed, changed_at))

/// Persisted state of one token bucket.
struct bucket_level {
  double tokens = 0;    ///< tokens at `at_ms`
  int64_t at_ms = 0;    ///< wall time of the reading, Unix ms
};
SVC_DESCRIBE(bucket_level, (tokens, at_ms))

/// Persisted state of a team's buckets, by class name.
struct bucket_snapshot {
  std::string team_id;
  std::map<std::string, bucket_level> levels;
};
SVC_DESCRIBE(bucket_snapshot, (team_id, levels))

/// A create answered under an `Idempotency-Key`: replayed for the same body
/// until it expires (key `team_id/route/key`).
struct idempotency_record {
  std::string team_id;
  std::string route;          ///< `images`, `videos`
  std::string key;            ///< the header value
  std::string request_sha256; ///< hex SHA-256 of the request body as parsed
  int status = 201;           ///< the stored answer
  std::string body;
  std::string location;       ///< its `Location` header
  core::time_point created_at;
  core::time_point expires_at;
};
SVC_DESCRIBE(idempotency_record, (team_id, route, key, request_sha256, status, body, location, created_at, expires_at))

/// A team's charged usage on one UTC day (key `team_id/YYYY-MM-DD`).
struct usage_record {
  std::string team_id;
  std::string date;           ///< `YYYY-MM-DD`, UTC
  int64_t credits_charged = 0;
  int64_t images = 0;         ///< output images of succeeded image jobs
  int64_t videos = 0;         ///< succeeded video jobs
};
SVC_DESCRIBE(usage_record, (team_id, date, credits_charged, images, videos))

} // namespace svc::schema
