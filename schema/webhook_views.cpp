#include "schema/webhook_views.hpp"

#include <boost/json.hpp>

#include "core/ids.hpp"
#include "core/time_format.hpp"
#include "schema/json_fields.hpp"
#include "schema/webhook_signature.hpp"

namespace svc::schema {
namespace json = boost::json;
namespace {

json::value optional_time(const std::optional<core::time_point>& t) {
  return t ? json::value(core::format_iso8601(*t)) : json::value(nullptr);
}

} // namespace

json::value webhook_endpoint_view(const webhook_endpoint_record& e, bool show_secret) {
  return {{"id", e.id},
          {"object", "webhook_endpoint"},
          {"url", e.url},
          {"events", strings_json(e.events)},
          {"secret_preview", secret_preview(e.secret)},
          {"secret", show_secret ? json::value(e.secret) : json::value(nullptr)},
          {"previous_secret_expires_at", optional_time(e.previous_secret_expires_at)},
          {"is_active", e.is_active},
          {"consecutive_failures", e.consecutive_failures},
          {"last_success_at", optional_time(e.last_success_at)},
          {"last_failure_at", optional_time(e.last_failure_at)},
          {"disabled_at", optional_time(e.disabled_at)},
          {"metadata", string_map_json(e.metadata)},
          {"created_at", core::format_iso8601(e.created_at)},
          {"updated_at", core::format_iso8601(e.updated_at)}};
}

json::value deleted_endpoint_view(std::string_view id) {
  return {{"id", id}, {"object", "webhook_endpoint"}, {"deleted", true}};
}

json::value delivery_view(const delivery_record& d) {
  return {{"id", d.id},
          {"object", "webhook_delivery"},
          {"endpoint_id", d.endpoint_id},
          {"event_id", d.event_id},
          {"event_type", d.event_type},
          {"attempt", d.attempt},
          {"status", d.succeeded ? "succeeded" : "failed"},
          {"response_status", d.response_status ? json::value(*d.response_status) : json::value(nullptr)},
          {"error_class", d.error == delivery_error::none ? json::value(nullptr) : json::value(to_string(d.error))},
          {"error_message", d.error_detail.empty() ? json::value(nullptr) : json::value(d.error_detail)},
          {"response_body", d.response_body},
          {"duration_ms", d.duration_ms},
          {"is_terminal", d.is_terminal},
          {"is_dead_letter", d.is_dead_letter},
          {"next_attempt_at", optional_time(d.next_attempt_at)},
          {"created_at", core::format_iso8601(d.created_at)}};
}

json::value event_envelope(const event_record& e, json::value data) {
  return {{"id", e.id},
          {"object", "event"},
          {"type", e.type},
          {"created_at", core::format_iso8601(e.created_at)},
          {"synthetic", e.synthetic},
          {"api_version", e.api_version},
          {"data", std::move(data)}};
}

event_record mint_event(std::string team_id, std::string_view type, std::string api_version, bool synthetic,
                        core::time_point at, json::value data, correlation cause) {
  event_record e;
  e.correlation = std::move(cause);
  e.id = core::make_id("evt");
  e.team_id = std::move(team_id);
  e.type = std::string{type};
  e.api_version = std::move(api_version);
  e.synthetic = synthetic;
  // The envelope shows milliseconds: keep the record equal to what it shows.
  e.created_at = core::from_unix_ms(core::to_unix_ms(at));
  e.body = json::serialize(event_envelope(e, std::move(data)));
  return e;
}

json::value test_fire_view(std::string_view endpoint_id, std::string_view event_id, bool enqueued) {
  return {{"object", "webhook_test_fire"}, {"endpoint_id", endpoint_id}, {"event_id", event_id}, {"enqueued", enqueued}};
}

json::value replay_view(std::string_view endpoint_id, int64_t enqueued) {
  return {{"object", "webhook_replay"}, {"endpoint_id", endpoint_id}, {"enqueued", enqueued}};
}

} // namespace svc::schema
