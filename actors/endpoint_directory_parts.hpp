#pragma once
// What the endpoint directory's source files share, internal to actors/: its
// live work (endpoint_directory.cpp), its recovery at start
// (endpoint_directory_recovery.cpp) and its shard handover (endpoint_directory_handover.cpp).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "actors/endpoint_directory.hpp"
#include "core/shard.hpp"

namespace svc::actors {

using endpoint_directory_self = endpoint_directory_actor::stateful_pointer<endpoint_directory_state>;

// --- live work (endpoint_directory.cpp)

/// Sets the gauge of disabled endpoints to the directory's count.
void show_disabled(endpoint_directory_self self);

/// Drops endpoint `id` from memory (its entry, its team's set, its loading mark).
void forget(endpoint_directory_self self, const std::string& id);

/// Spawns the actor of endpoint `e` and remembers it.
void spawn_endpoint(endpoint_directory_self self, const context& ctx, const endpoint_services& services,
                    const schema::webhook_endpoint_record& e);

/// Commits one delivery task per active subscribed endpoint of the event's
/// team with the erasure of its `pending_events` row, then hands them over.
void fan_out(endpoint_directory_self self, const context& ctx, const schema::event_record& event);

// --- recovery at start (endpoint_directory_recovery.cpp)

/// Spawns the stored endpoints at start, marks them loading and asks for the
/// first batch of pending events.
void recover(endpoint_directory_self self, const context& ctx, const endpoint_services& services);

/// Logs the recovery's end once every endpoint loaded its tasks and every pending event is fanned out.
void check_recovered(endpoint_directory_self self, const context& ctx);

/// Fans out the batch of `pending_events` rows after `after`, then asks for the next.
void fan_out_pending(endpoint_directory_self self, const context& ctx, const std::string& after);

/// Fans out the pending events of `ids` whose team this node holds; with `shard`, only that shard's. How many.
int64_t fan_out_events(endpoint_directory_self self, const context& ctx, const std::vector<std::string>& ids,
                       std::optional<core::shard_id> shard);

/// Spawns the stored endpoints this node holds that have no actor yet; with
/// `shard`, only that shard's. Their ids, or the store's failure.
caf::expected<std::vector<std::string>> spawn_stored_endpoints(endpoint_directory_self self, const context& ctx,
                                                               const endpoint_services& services,
                                                               std::optional<core::shard_id> shard);

// --- shard handover (endpoint_directory_handover.cpp)

/// Takes `shard` over: its endpoints and its pending events; how many.
caf::result<int64_t> adopt_shard(endpoint_directory_self self, const context& ctx,
                                 const endpoint_services& services, core::shard_id shard);

/// Lets go of `shard`'s endpoints; how many, once they are gone.
caf::result<int64_t> release_shard(endpoint_directory_self self, core::shard_id shard);

} // namespace svc::actors
