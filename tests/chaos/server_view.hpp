#pragma once
// What svcd shows of a team through the public API: its jobs, files and
// endpoints, its balance and charged usage (read so that no job settled in
// between), and its event feed.

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "support/http_client.hpp"

namespace svc::chaos {

/// A job as GET /v1/images (or videos) lists it.
struct job_view {
  std::string id;
  bool video = false;
  std::string status;
  std::string cost_status; ///< held, charged or refunded
  std::int64_t credits = 0;
  std::size_t outputs = 0; ///< entries of `outputs`
};

/// One team, read with its balance equal before and after the lists.
struct team_view {
  std::map<std::string, job_view> jobs;
  std::set<std::string> files;
  std::map<std::string, bool> endpoints; ///< id -> is_active
  std::int64_t available = 0;
  std::int64_t held = 0;
  std::int64_t charged = 0;       ///< usage total credits_charged, yesterday to tomorrow (UTC)
  std::int64_t usage_images = 0;  ///< outputs of charged images
  std::int64_t usage_videos = 0;
  bool consistent = false; ///< the balance did not move while the rest was read
};

/// An event of a team's feed.
struct event_view {
  std::string id;
  std::string type;
  std::int64_t created_ms = 0;
  std::string job_id; ///< `data.id` of job events, else empty
};

/// Reads one team with `key` (read scope). Throws std::runtime_error when a
/// read does not answer 200.
team_view read_team(e2e::http_client& c, const std::string& key);

/// Adds the events of the feed that `known` does not hold yet, reading from
/// the newest until one it holds. Throws std::runtime_error like `read_team`.
void read_new_events(e2e::http_client& c, const std::string& key, std::map<std::string, event_view>& known);

/// Whether a job status is terminal.
bool is_terminal(const std::string& status);

} // namespace svc::chaos
