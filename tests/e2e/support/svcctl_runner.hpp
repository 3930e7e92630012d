#pragma once
// Runs `svcctl --data-dir DIR ...` and captures what it printed.

#include <boost/json/value.hpp>

#include <chrono>
#include <string>
#include <vector>

namespace svc::e2e {

/// Outcome of one svcctl run.
struct svcctl_result {
  int exit_code = -1;          ///< exit code; 128 + signal if killed; -1 on timeout
  std::string out;             ///< stdout
  std::string err;             ///< stderr
  boost::json::value out_json; ///< stdout parsed as JSON, null if it is not JSON
  boost::json::value err_json; ///< stderr parsed as JSON, null if it is not JSON
};

/// Runs svcctl with `--data-dir data_dir` followed by `args`; kills it after
/// `timeout`.
svcctl_result run_svcctl(const std::string& data_dir, const std::vector<std::string>& args,
                         std::chrono::milliseconds timeout = std::chrono::seconds{30});

/// Runs svcctl like `run_svcctl` and returns the JSON it printed; throws
/// std::runtime_error (naming the command, with its stdout and stderr) when
/// it fails or prints no JSON.
boost::json::value run_svcctl_ok(const std::string& data_dir, const std::vector<std::string>& args);

/// Checks, in the context `what`, that svcctl exited 1 with `resource_not_found` on stderr.
void check_not_found(const svcctl_result& r, const std::string& what);

} // namespace svc::e2e
