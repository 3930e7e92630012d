// svcctl: the operator CLI, a thin client of svcd's admin listener. Every
// command prints JSON on stdout, or a JSON error on stderr with the exit code
// of command.hpp; `svcctl --help` and `svcctl COMMAND --help` describe them.
#include <iostream>
#include <sstream>

#include "apps/svcctl/admin_client.hpp"
#include "apps/svcctl/command.hpp"
#include "core/build_info.hpp"
#include "core/option_error.hpp"

namespace svc::ctl {
namespace {

const char* exit_codes_text = R"(exit codes:
  0  done; the answer is JSON on stdout
  1  svcd refused (unknown id, bad value...) or an offline command failed; JSON error on stderr
  2  usage error: unknown command or option, missing or malformed value; JSON error on stderr
  3  cannot reach svcd: no svcd.json or admin token, or nothing answers at the admin URL
)";

std::vector<command> all_commands() {
  std::vector<command> all;
  for (auto group : {team_commands, key_commands, credit_commands, usage_commands, job_commands, endpoint_commands,
                     lora_commands, engine_commands, operator_commands, cluster_commands})
    for (auto& c : group())
      all.push_back(std::move(c));
  return all;
}

po::options_description global_description() {
  po::options_description d{"global options"};
  d.add_options()("data-dir", po::value<std::string>()->default_value("./svc-data"),
                  "svcd's data directory: svcd.json and admin.token are read from it")(
    "admin-url", po::value<std::string>(), "svcd's admin URL (http://HOST:PORT) instead of DIR/svcd.json's")(
    "token-file", po::value<std::string>(), "read the admin token from FILE instead of DIR/admin.token")(
    "help", "print help (after a command: that command's)")("version", "print version and commit");
  return d;
}

std::string overview(const std::vector<command>& commands) {
  std::ostringstream out;
  out << "usage: svcctl [--data-dir DIR | --admin-url URL --token-file FILE] COMMAND [options]\n\ncommands:\n";
  for (auto& c : commands)
    out << "  " << c.name << " " << c.synopsis << "\n      " << c.summary << "\n";
  out << "\n" << global_description() << "\n" << exit_codes_text;
  return out.str();
}

// No abbreviations (`--credit` must not pass for `--credits`), no short forms.
constexpr int style = po::command_line_style::allow_long | po::command_line_style::long_allow_adjacent
                      | po::command_line_style::long_allow_next;

// The command named by the first one or two words that are not options.
const command* find_command(const std::vector<command>& commands, const std::vector<std::string>& args,
                            std::size_t& words_at, std::size_t& words) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].rfind("--", 0) == 0) {
      // Skip the value of a global option given as `--name value`.
      if (args[i].find('=') == std::string::npos && args[i] != "--help" && args[i] != "--version")
        ++i;
      continue;
    }
    words_at = i;
    for (auto& c : commands)
      if (i + 1 < args.size() && c.name == args[i] + " " + args[i + 1])
        return words = 2, &c;
    for (auto& c : commands)
      if (c.name == args[i])
        return words = 1, &c;
    throw usage_error{"unknown command '" + args[i] + (i + 1 < args.size() ? " " + args[i + 1] : "")
                      + "'; run 'svcctl --help' for the commands"};
  }
  return nullptr;
}

int run(int argc, char** argv) {
  auto commands = all_commands();
  std::vector<std::string> args{argv + 1, argv + argc};
  if (args.size() == 1 && args[0] == "help") {
    std::cout << overview(commands);
    return exit_code::ok;
  }
  std::size_t words_at = 0, words = 0;
  auto* cmd = find_command(commands, args, words_at, words);
  auto description = global_description();
  if (cmd) {
    po::options_description own{"options of '" + cmd->name + "'"};
    cmd->declare(own);
    description.add(own);
    args.erase(args.begin() + static_cast<long>(words_at), args.begin() + static_cast<long>(words_at + words));
  }
  po::positional_options_description bare;
  if (cmd)
    for (auto& name : cmd->positional)
      bare.add(name.c_str(), 1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(description).style(style).positional(bare).run(), vm);
  if (vm.count("version")) {
    std::cout << svc::core::version_line("svcctl") << "\n";
    return exit_code::ok;
  }
  if (vm.count("help")) {
    if (cmd)
      std::cout << "usage: svcctl [global options] " << cmd->name << " " << cmd->synopsis << "\n" << cmd->summary
                << "\n\n" << description << "\n" << exit_codes_text;
    else
      std::cout << overview(commands);
    return exit_code::ok;
  }
  if (!cmd)
    throw usage_error{"no command given; run 'svcctl --help' for the commands"};
  po::notify(vm);
  global_options g{vm["data-dir"].as<std::string>(), text_of(vm, "admin-url"), text_of(vm, "token-file")};
  return cmd->run(vm, g);
}

} // namespace

std::string text_of(const po::variables_map& vm, const std::string& name) {
  return vm.count(name) ? vm[name].as<std::string>() : std::string{};
}

} // namespace svc::ctl

int main(int argc, char** argv) {
  using namespace svc::ctl;
  try {
    return run(argc, argv);
  } catch (const po::error& e) {
    return print_error("usage", svc::core::option_error_text(e) + "; run 'svcctl --help'", exit_code::usage);
  } catch (const usage_error& e) {
    return print_error("usage", e.what(), exit_code::usage);
  }
}
