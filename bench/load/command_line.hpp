#pragma once
// What every svc-bench command shares: the options of all scenarios, parsing
// with --help, the URL and keys, durations, and the command line that
// reproduces a run (every option with the value it had, defaults included).

#include <boost/program_options.hpp>

#include <string>
#include <vector>

#include "bench/load/requests.hpp"
#include "bench/load/target.hpp"
#include "core/duration.hpp"

namespace svc::bench {

namespace po = boost::program_options;

/// The options every scenario takes.
struct common_args {
  std::string url, keys_file, prompt;
  int width = 256, height = 256;
  bool allow_remote = false;
};

/// Adds --help, --url, --keys, --width, --height and --prompt.
void add_common(po::options_description& d, common_args& a);

/// Adds --allow-remote (the load-testers' scenarios: create, read, mixed).
void add_allow_remote(po::options_description& d, common_args& a);

/// Parses `argv` (argv[0] is the scenario word) into `d`'s variables; false
/// after printing help (`status` 0) or an error (`status` 2).
bool parse(int argc, char** argv, const po::options_description& d, po::variables_map& vm, int& status);

/// A scenario command's command line: the common options, the scenario's own
/// (the caller adds them to `d`), and the parse.
struct scenario_command {
  common_args a;
  po::options_description d;
  po::variables_map vm;
  int status = 0; ///< the exit status once a step said the command ends here

  /// `caption` heads the options in --help.
  explicit scenario_command(const char* caption) : d(caption) { add_common(d, a); }

  /// Parses `argv` as `parse` does, into `vm` and `status`.
  bool parse(int argc, char** argv) { return svc::bench::parse(argc, argv, d, vm, status); }
};

/// Resolves the URL (loopback only unless --allow-remote) and reads the keys;
/// false after printing why not.
bool load_target(const common_args& a, target& server, std::vector<std::string>& keys, image_spec& image);

/// Prints `svc-bench: <why>` on stderr; 2, the exit status of bad usage or a failed setup.
int refuse(const std::string& why);

/// Parses `text` as a duration into `out`; false after printing why not.
bool read_duration(const std::string& text, const char* name, core::duration& out);

/// `argv0 scenario --name value ...` for every option in `vm` (defaults
/// included, --help left out), shell-quoted so it can be pasted back.
std::string reproduce_command(const char* argv0, const char* scenario, const po::variables_map& vm);

} // namespace svc::bench
