#include "schema/webhook_views.hpp"

#include <boost/json.hpp>

#include "core/ids.hpp"
#include "core/shard.hpp"
#include "core/time_format.hpp"
#include "schema/record_view.hpp"
#include "schema/webhook_signature.hpp"

namespace svc::schema {
namespace json = boost::json;
namespace {

// The endpoint's secret: its preview always, the secret itself only in the
// answers to create and rotate_secret.
struct endpoint_secret {
  bool shown;
  template <class Sink>
  void write(Sink& w, const webhook_endpoint_record& e, member_tag<&webhook_endpoint_record::secret>) const {
    w.key("secret_preview").string(secret_preview(e.secret));
    w.key("secret");
    if (shown)
      w.string(e.secret);
    else
      w.null();
  }
};

} // namespace

json::value webhook_endpoint_view(const webhook_endpoint_record& e, bool show_secret) {
  return view_tree(e, endpoint_secret{show_secret});
}

json::value deleted_endpoint_view(std::string_view id) {
  return {{"id", id}, {"object", "webhook_endpoint"}, {"deleted", true}};
}

json::value delivery_view(const delivery_record& d) { return view_tree(d); }

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
  e.id = core::make_id("evt", core::shard_of_team(team_id));
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
