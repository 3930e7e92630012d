#include "schema/webhook_codecs.hpp"

#include <boost/json.hpp>

#include "schema/json_fields.hpp"

namespace svc::schema {
namespace json = boost::json;
namespace {

int64_t ms(core::time_point t) { return core::to_unix_ms(t); }

} // namespace

json::value encode(const webhook_endpoint_record& r) {
  return {{"id", r.id},
          {"team_id", r.team_id},
          {"url", r.url},
          {"events", strings_json(r.events)},
          {"secret", r.secret},
          {"previous_secret", r.previous_secret},
          {"previous_secret_expires_at", optional_unix_ms(r.previous_secret_expires_at)},
          {"is_active", r.is_active},
          {"consecutive_failures", r.consecutive_failures},
          {"last_success_at", optional_unix_ms(r.last_success_at)},
          {"last_failure_at", optional_unix_ms(r.last_failure_at)},
          {"disabled_at", optional_unix_ms(r.disabled_at)},
          {"metadata", string_map_json(r.metadata)},
          {"created_at", ms(r.created_at)},
          {"updated_at", ms(r.updated_at)}};
}

bool decode(const json::value& v, webhook_endpoint_record& r) {
  json_fields f{v};
  r = webhook_endpoint_record{};
  r.id = f.str("id");
  r.team_id = f.str("team_id");
  r.url = f.str("url");
  r.events = f.strings("events");
  r.secret = f.str("secret");
  r.previous_secret = f.str("previous_secret");
  r.previous_secret_expires_at = f.opt_time("previous_secret_expires_at");
  r.is_active = f.boolean("is_active");
  r.consecutive_failures = f.i64("consecutive_failures");
  r.last_success_at = f.opt_time("last_success_at");
  r.last_failure_at = f.opt_time("last_failure_at");
  r.disabled_at = f.opt_time("disabled_at");
  r.metadata = f.string_map("metadata");
  r.created_at = core::from_unix_ms(f.i64("created_at"));
  r.updated_at = core::from_unix_ms(f.i64("updated_at"));
  return f.ok() && r.consecutive_failures >= 0;
}

json::value encode(const event_record& r) {
  return {{"id", r.id},
          {"team_id", r.team_id},
          {"type", r.type},
          {"api_version", r.api_version},
          {"synthetic", r.synthetic},
          {"created_at", ms(r.created_at)},
          {"body", r.body},
          {"correlation", encode(r.correlation)}};
}

bool decode(const json::value& v, event_record& r) {
  json_fields f{v};
  r.id = f.str("id");
  r.team_id = f.str("team_id");
  r.type = f.str("type");
  r.api_version = f.str("api_version");
  r.synthetic = f.boolean("synthetic");
  r.created_at = core::from_unix_ms(f.i64("created_at"));
  r.body = f.str("body");
  return f.ok() && decode(v.as_object().if_contains("correlation"), r.correlation); // absent in events stored before it
}

json::value encode(const delivery_record& r) {
  return {{"id", r.id},
          {"endpoint_id", r.endpoint_id},
          {"team_id", r.team_id},
          {"event_id", r.event_id},
          {"event_type", r.event_type},
          {"attempt", r.attempt},
          {"succeeded", r.succeeded},
          {"response_status", r.response_status ? json::value(*r.response_status) : json::value(nullptr)},
          {"error", to_string(r.error)},
          {"error_detail", r.error_detail},
          {"response_body", r.response_body},
          {"duration_ms", r.duration_ms},
          {"is_terminal", r.is_terminal},
          {"is_dead_letter", r.is_dead_letter},
          {"next_attempt_at", optional_unix_ms(r.next_attempt_at)},
          {"created_at", ms(r.created_at)}};
}

bool decode(const json::value& v, delivery_record& r) {
  json_fields f{v};
  r = delivery_record{};
  r.id = f.str("id");
  r.endpoint_id = f.str("endpoint_id");
  r.team_id = f.str("team_id");
  r.event_id = f.str("event_id");
  r.event_type = f.str("event_type");
  r.attempt = static_cast<int>(f.i64("attempt"));
  r.succeeded = f.boolean("succeeded");
  auto status = f.opt_i64("response_status");
  auto error = delivery_error_from_name(f.str("error"));
  r.error_detail = f.str("error_detail");
  r.response_body = f.str("response_body");
  r.duration_ms = f.i64("duration_ms");
  r.is_terminal = f.boolean("is_terminal");
  r.is_dead_letter = f.boolean("is_dead_letter");
  r.next_attempt_at = f.opt_time("next_attempt_at");
  r.created_at = core::from_unix_ms(f.i64("created_at"));
  if (!f.ok() || !error || (status && (*status < 100 || *status > 999)))
    return false;
  if (status)
    r.response_status = static_cast<int>(*status);
  r.error = *error;
  return true;
}

json::value encode(const delivery_task& r) {
  return {{"id", r.id},
          {"endpoint_id", r.endpoint_id},
          {"event_id", r.event_id},
          {"attempt", r.attempt},
          {"due_at", ms(r.due_at)}};
}

bool decode(const json::value& v, delivery_task& r) {
  json_fields f{v};
  r.id = f.str("id");
  r.endpoint_id = f.str("endpoint_id");
  r.event_id = f.str("event_id");
  auto attempt = f.i64("attempt");
  r.due_at = core::from_unix_ms(f.i64("due_at"));
  if (!f.ok() || attempt < 1 || attempt > max_delivery_attempts)
    return false;
  r.attempt = static_cast<int>(attempt);
  return true;
}

} // namespace svc::schema
