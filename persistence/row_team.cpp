#include "persistence/row_team.hpp"

#include "persistence/job_rows.hpp"
#include "persistence/value_codec.hpp"

namespace svc::persistence {
namespace {

using team = read_result<std::string>;

// A team id as a key part; absent when empty (a damaged key).
team named(std::string_view team_id) { return team_id.empty() ? team::none() : team{std::string{team_id}}; }

// The `team_id` member of a stored record, read from its JSON without
// decoding the whole record type: every team-owned record has one.
team team_field(std::string_view value) {
  unsigned char block[4096];
  boost::json::monotonic_resource arena{block, sizeof block};
  auto v = decode_value(value, &arena);
  auto* object = v ? v->if_object() : nullptr;
  auto* member = object ? object->if_contains("team_id") : nullptr;
  if (!member || !member->is_string())
    return team::none();
  return named(member->get_string());
}

// The team of the row stored under `key` in `t`.
team team_of_stored(const snapshot& s, table t, std::string_view key) {
  auto value = s.get(t, key);
  if (!value.has_value())
    return value;
  return team_of_row(s, t, key, *value);
}

// The team of the record an index row's value names in `target`.
team team_of_target(const snapshot& s, table target, std::string_view value) {
  auto id = decode_text(value);
  return id ? team_of_stored(s, target, *id) : team::none();
}

// An endpoint's rows (`we_id/...`) by their endpoint; a `delivered_events`
// row (`we_id/evt_id`) outlives a deleted endpoint, so by its event then.
team team_of_endpoint_row(const snapshot& s, table from, std::string_view key) {
  auto by_endpoint = team_of_stored(s, table::webhook_endpoints, owner_part(key));
  if (!by_endpoint.absent() || from != table::delivered_events || key.find('/') == std::string_view::npos)
    return by_endpoint;
  return team_of_stored(s, table::events, key.substr(key.find('/') + 1));
}

// An `expiries` row by the subject its kind names.
team team_of_expiry(const snapshot& s, std::string_view key) {
  expiry_entry e;
  if (!parse_expiry_key(key, e))
    return team::none();
  switch (e.kind) {
  case expiry_kind::outputs:
    return team_of_stored(s, table::jobs, e.subject);
  case expiry_kind::idempotency:
    return named(owner_part(e.subject));
  case expiry_kind::event:
    return team_of_stored(s, table::events, e.subject);
  case expiry_kind::delivery:
    return team_of_stored(s, table::deliveries, e.subject);
  case expiry_kind::file:
    return team_of_stored(s, table::files, e.subject);
  }
  return team::none();
}

} // namespace

team team_of_row(const snapshot& s, table from, std::string_view key, std::string_view value) {
  switch (shape_of(from)) {
  case key_shape::store_wide:
    return team::none();
  case key_shape::team:
    return named(key);
  case key_shape::team_then_rest:
    return named(owner_part(key));
  case key_shape::expiry:
    return team_of_expiry(s, key);
  case key_shape::record_then_rest: // an endpoint's rows; a delivery says its team
    return from == table::deliveries ? team_field(value) : team_of_endpoint_row(s, from, key);
  case key_shape::record:
    break;
  }
  // Records say their team; index rows name the record that does.
  if (from == table::key_hashes)
    return team_of_target(s, table::api_keys, value);
  if (from == table::live_jobs)
    return team_of_stored(s, table::jobs, key);
  if (from == table::pending_events)
    return team_of_stored(s, table::events, key);
  return team_field(value); // api_keys, jobs, webhook_endpoints, events, files
}

} // namespace svc::persistence
