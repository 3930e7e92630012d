#pragma once
// Reads `config` from flags, `SVC_*` environment variables and `--config FILE`,
// in that order of precedence over the defaults.

#include <functional>
#include <optional>
#include <string>

#include "core/config.hpp"

namespace svc::core {

/// What the command line asked for.
struct parsed_config {
  config cfg;               ///< valid when `error` is empty
  bool help = false;        ///< --help was given: print `help_text` and exit 0
  bool print_table = false; ///< --print-config-table: print the markdown table
  bool print_example = false; ///< --print-example-config: print a config file of every default
  bool version = false;     ///< --version: print version and commit
  bool check = false;       ///< --check-config: parse everything, report, start nothing
  std::string help_text;
  std::string error;        ///< one line naming the bad option or value
};

/// Looks up an environment variable; returns nullopt when unset.
using env_lookup = std::function<std::optional<std::string>(const std::string&)>;

/// The process environment.
env_lookup process_environment();

/// Parses the command line of svcd. Never throws.
parsed_config parse_config(int argc, const char* const* argv, const env_lookup& env = process_environment());

} // namespace svc::core
