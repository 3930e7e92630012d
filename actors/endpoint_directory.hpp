#pragma once
// The endpoint directory: owns every endpoint actor and turns each published
// event into delivery tasks for the team's active subscribed endpoints.

#include <set>
#include <string>
#include <unordered_map>

#include "actors/endpoint.hpp"
#include "actors/release_round.hpp"

namespace svc::actors {

/// What the directory knows of an endpoint for fan-out.
struct endpoint_entry {
  endpoint_actor handle;
  std::string team_id;
  std::vector<std::string> events;
  bool is_active = true;
};

struct endpoint_directory_state {
  std::unordered_map<std::string, endpoint_entry> endpoints; ///< by endpoint id
  std::unordered_map<std::string, std::set<std::string>> by_team; ///< team id -> endpoint ids
  std::set<std::string> creating;  ///< idempotency keys of creates being committed
  std::unordered_map<std::string, std::size_t> committing; ///< team id -> its creates being committed (counted against the cap)
  std::size_t disabled = 0; ///< endpoints not active (`svc_webhook_disabled_endpoints`)
  uint64_t published = 0, tasks = 0;
  // Recovery at start (`ready`): the endpoints still loading their pending
  // tasks, whether the events a crash left pending are all fanned out, and
  // how many tasks and events came back.
  std::set<std::string> loading;
  bool fanning_out = true;
  int64_t recovered = 0;
  core::time_point recovery_began;
  release_rounds releases; ///< shards being released, waiting for their endpoints to exit
  static inline const char* name = "endpoint_directory";
};

/// `pending_events` rows read per read transaction at start; other messages
/// are handled between two batches.
inline constexpr std::size_t event_recovery_batch = 2000;

/// Spawns every stored endpoint (each loads its pending tasks and reports
/// `loaded`) and fans out the events a crash left pending, in batches.
/// `services.directory` is filled in with the directory itself.
endpoint_directory_actor::behavior_type endpoint_directory(
  endpoint_directory_actor::stateful_pointer<endpoint_directory_state> self, context ctx, endpoint_services services);

} // namespace svc::actors
