#pragma once
// What the engine suites (ComfyUI, Cog) do with a job alike: run one to its
// end, count its terminal events, and check that a failure was recorded,
// refunded and announced once.
#include <string>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "support/http_client.hpp"
#include "support/server_fixture.hpp"

namespace svc::e2e {

/// Creates a job at `path` (`/v1/images`) with `t`'s write key; its terminal state.
boost::json::value run_engine_job(http_client& c, const team_keys& t, const std::string& path,
                                  const boost::json::object& body);

/// image.completed and image.failed events of job `id`.
int terminal_events(http_client& c, const std::string& read_key, const std::string& id);

/// Checks `job` failed with `code` (its message containing `message_part`),
/// the team's `credits` are all available again and one terminal event says so.
void check_failed_and_refunded(http_client& c, const team_keys& t, const boost::json::value& job,
                               const std::string& code, const std::string& message_part = "",
                               long long credits = 1000);

} // namespace svc::e2e
