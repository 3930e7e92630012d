#pragma once
// Replays: every event since a time that the endpoint subscribes to and
// never received is enqueued again, paid for from the team's
// `webhook_replay_events` bucket.

#include "actors/endpoint.hpp"

namespace svc::actors {

/// Enqueues the missed events since `since`; their count once durable.
caf::result<int64_t> replay(endpoint_self self, const context& ctx, const endpoint_services& services,
                            core::time_point since);

} // namespace svc::actors
