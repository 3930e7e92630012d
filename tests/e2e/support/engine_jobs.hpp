#pragma once
// What the engine suites (ComfyUI, Cog) do with a job alike: run one to its
// end, count its terminal events, and check that a failure was recorded,
// refunded and announced once.
#include <functional>
#include <string>
#include <vector>

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

/// A change to an engines file that svcd must refuse at start.
struct refused_edit {
  std::string from, to; ///< replaced in the file's text
  std::string expect;   ///< in svcd's start error
};

/// For each edit of `engines_yaml`, svcd given the edited file (and `args_for`
/// its path) exits during start with an error naming `expect` and `engine`.
void check_refused_at_start(const std::string& engines_yaml, const std::vector<refused_edit>& edits,
                            const std::string& engine,
                            const std::function<std::vector<std::string>(const std::string&)>& args_for);

} // namespace svc::e2e
