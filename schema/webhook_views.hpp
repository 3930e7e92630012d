#pragma once
// The wire form of webhook endpoints, delivery rows and event envelopes.

#include <string_view>

#include <boost/json/value.hpp>

#include "schema/webhook_records.hpp"

namespace svc::schema {

/// `GET /v1/webhook_endpoints/{id}`; `show_secret` only in the answers to
/// create and rotate_secret (the plaintext is never readable again).
boost::json::value webhook_endpoint_view(const webhook_endpoint_record& e, bool show_secret = false);

/// The answer to `DELETE /v1/webhook_endpoints/{id}`.
boost::json::value deleted_endpoint_view(std::string_view id);

/// One row of `GET /v1/webhook_endpoints/{id}/deliveries`.
boost::json::value delivery_view(const delivery_record& d);

/// The envelope every delivery sends: `{id, object: "event", type,
/// created_at, synthetic, api_version, data}`.
boost::json::value event_envelope(const event_record& e, boost::json::value data);

/// A new event: an `evt_` id and the envelope serialized once, so every
/// delivery and every read shows the same bytes. `cause` is the request that
/// caused it (none for events no request caused).
event_record mint_event(std::string team_id, std::string_view type, std::string api_version, bool synthetic,
                        core::time_point at, boost::json::value data, correlation cause = {});

/// The answer to `POST /v1/webhook_endpoints/{id}/test` (202).
boost::json::value test_fire_view(std::string_view endpoint_id, std::string_view event_id, bool enqueued);

/// The answer to `POST /v1/webhook_endpoints/{id}/replay` (202).
boost::json::value replay_view(std::string_view endpoint_id, int64_t enqueued);

} // namespace svc::schema
