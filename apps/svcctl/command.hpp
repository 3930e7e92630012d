#pragma once
// One svcctl command: its words, the options it takes and what it does. Each
// command group (teams, keys, ...) lists its commands in its own file.

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/program_options.hpp>

namespace svc::ctl {

namespace po = boost::program_options;

/// The documented exit codes (svcctl --help, docs/operating.md, svcctl.1).
namespace exit_code {
constexpr int ok = 0;          ///< the command did what it says
constexpr int refused = 1;     ///< svcd answered with an error (bad id, bad value...), or an offline command failed
constexpr int usage = 2;       ///< the command line is wrong: unknown command or option, missing or bad value
constexpr int unreachable = 3; ///< no svcd to ask: no svcd.json or token, or the admin URL does not answer
} // namespace exit_code

/// A command line svcctl refuses before asking anything (exit code 2).
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The options every command takes: where svcd is and how to prove we are its operator.
struct global_options {
  std::string data_dir;   ///< --data-dir: svcd.json and admin.token are read from it by default
  std::string admin_url;  ///< --admin-url: overrides DIR/svcd.json's admin_url
  std::string token_file; ///< --token-file: overrides DIR/admin.token
};

struct command {
  std::string name;     ///< the words that select it: "team create"
  std::string synopsis; ///< its options in one line: "--name NAME --owner-email EMAIL [--credits N]"
  std::string summary;  ///< what it does, one line
  /// Adds the command's own options (mark required ones `->required()`).
  std::function<void(po::options_description&)> declare;
  /// Runs it on parsed options; returns an exit code. May throw usage_error.
  std::function<int(const po::variables_map&, const global_options&)> run;
  /// Options that may also be given bare, in this order (`shard move 7` for `--shard 7`).
  std::vector<std::string> positional = {};
};

// One list per command group, in the order `svcctl --help` shows them.
std::vector<command> team_commands();
std::vector<command> key_commands();
std::vector<command> credit_commands();
std::vector<command> lora_commands();
std::vector<command> job_commands();
std::vector<command> endpoint_commands();
std::vector<command> usage_commands();
std::vector<command> operator_commands();
std::vector<command> engine_commands();
std::vector<command> cluster_commands();

/// "a,b,,c" -> ["a", "b", "c"]
boost::json::array comma_separated(const std::string& list);

/// Declares --limit N and --after ID, the paging of list commands.
void declare_page(po::options_description& d);
/// `?limit=N&starting_after=ID` from those options; "" when neither was given.
std::string page_query(const po::variables_map& vm);

/// Declares --team TEAM_ID (required), the team a command acts on.
void declare_team(po::options_description& d);
/// `/admin/teams/<id>` of the team --team names (percent-encoded).
std::string team_path(const po::variables_map& vm);
/// `name` (--team and the paging options): GET `team_path` + `path`, a page at a time.
command team_list_command(std::string name, std::string synopsis, std::string summary, std::string path);

/// An option's value if it was given, else "".
std::string text_of(const po::variables_map& vm, const std::string& name);

} // namespace svc::ctl
