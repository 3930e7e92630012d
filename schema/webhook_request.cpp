#include "schema/webhook_request.hpp"

#include <algorithm>

#include <boost/json.hpp>

#include "core/time_format.hpp"
#include "schema/event_types.hpp"
#include "schema/field_reader.hpp"
#include "schema/generation_request.hpp"

namespace svc::schema {
namespace json = boost::json;
namespace {

constexpr std::string_view wildcard = "*";

std::string type_list() {
  std::string out;
  for (auto& t : event_types())
    out += (out.empty() ? "" : ", ") + t;
  return out;
}

std::optional<std::string> read_url(field_reader& in, bool required) {
  return in.text("url", 1, max_webhook_url_chars, required);
}

// A non-empty array of unique v1.0 types, or exactly ["*"]: every type of
// today (types added later do not subscribe automatically, spec).
std::optional<std::vector<std::string>> read_events(field_reader& in, bool required) {
  auto* v = in.get("events");
  if (!v) {
    if (required)
      in.fail("events", "is required");
    return std::nullopt;
  }
  auto* items = v->if_array();
  if (!items || items->empty()) {
    in.fail("events", "must be a non-empty array of event types, or [\"*\"]");
    return std::nullopt;
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < items->size(); ++i) {
    auto name = "events[" + std::to_string(i) + "]";
    auto* s = (*items)[i].if_string();
    if (s && *s == wildcard) {
      if (items->size() != 1) {
        in.fail(name, "\"*\" subscribes to every type and must be the only item");
        return std::nullopt;
      }
      return event_types();
    }
    if (!s || !is_event_type(*s)) {
      in.fail(name, "must be one of " + type_list() + ", or the whole list must be [\"*\"]");
      return std::nullopt;
    }
    if (std::find(out.begin(), out.end(), std::string_view{*s}) != out.end()) {
      in.fail(name, "repeats an earlier item; list each type once");
      return std::nullopt;
    }
    out.emplace_back(s->data(), s->size());
  }
  return out;
}

std::optional<bool> read_flag(field_reader& in, std::string_view name) {
  auto* v = in.get(name);
  if (!v)
    return std::nullopt;
  if (!v->is_bool()) {
    in.fail(name, "must be true or false");
    return std::nullopt;
  }
  return v->get_bool();
}

} // namespace

checked<webhook_endpoint_request> validate_webhook_endpoint_create(const json::object& body) {
  field_reader in{body};
  in.only({"url", "events", "metadata"});
  webhook_endpoint_request r;
  if (auto url = read_url(in, true))
    r.url = std::move(*url);
  if (auto events = read_events(in, true))
    r.events = std::move(*events);
  // The metadata rules of generation bodies, so both routes accept exactly the same objects.
  if (auto metadata = in.string_map("metadata", metadata_limits))
    r.metadata = std::move(*metadata);
  if (in.error())
    return *in.error();
  return checked<webhook_endpoint_request>{std::move(r)};
}

checked<webhook_endpoint_update> validate_webhook_endpoint_update(const json::object& body) {
  field_reader in{body};
  in.only({"url", "events", "metadata", "is_active"});
  webhook_endpoint_update u;
  u.url = read_url(in, false);
  u.events = read_events(in, false);
  u.metadata = in.string_map("metadata", metadata_limits);
  u.is_active = read_flag(in, "is_active");
  if (in.error())
    return *in.error();
  if (!u.url && !u.events && !u.metadata && !u.is_active)
    return make_api_error(error_code::invalid_parameter,
                          {{"param", "body"}, {"detail", "send at least one of url, events, metadata, is_active"}});
  return checked<webhook_endpoint_update>{std::move(u)};
}

checked<std::string> validate_test_fire_request(const json::object& body) {
  field_reader in{body};
  in.only({"event_type"});
  auto type = in.text("event_type", 1, 100, true);
  if (type && !is_event_type(*type))
    in.fail("event_type", "must be one of " + type_list());
  if (in.error())
    return *in.error();
  return checked<std::string>{std::move(*type)};
}

checked<core::time_point> validate_replay_request(const json::object& body, core::time_point now) {
  field_reader in{body};
  in.only({"since"});
  auto text = in.text("since", 1, 64, true);
  std::optional<core::time_point> since;
  if (text) {
    since = core::parse_iso8601(*text);
    // The clock counts nanoseconds in 64 bits, which end in 2262: a later
    // year may not fit a time_point (it would wrap), and is the future anyway.
    bool beyond_clock = since && text->compare(0, 4, "2261") > 0;
    if (!since)
      in.fail("since", "must be an ISO 8601 UTC timestamp such as 2026-01-15T10:00:00Z");
    else if (beyond_clock || *since > now)
      in.fail("since", "must not be in the future");
  }
  if (in.error())
    return *in.error();
  return checked<core::time_point>{*since};
}

} // namespace svc::schema
