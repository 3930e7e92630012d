// svcd: the Svc server. Options: `svcd --help`; operating it is docs/operating.md.
#include <csignal>
#include <iostream>

#include "core/build_info.hpp"
#include "core/config_parser.hpp"
#include "core/log.hpp"
#include "apps/svcd/server.hpp"
#include "providers/engines_file.hpp"

int main(int argc, char** argv) {
  // A write to a peer, client or pipe that went away fails with EPIPE
  // where it is made, instead of ending the process.
  std::signal(SIGPIPE, SIG_IGN);
  auto parsed = svc::core::parse_config(argc, argv);
  if (parsed.help) {
    std::cout << parsed.help_text;
    return 0;
  }
  if (parsed.version) {
    std::cout << svc::core::version_line("svcd") << "\n";
    return 0;
  }
  if (parsed.print_table) {
    std::cout << svc::core::config_markdown_table();
    return 0;
  }
  if (parsed.print_example) {
    std::cout << svc::core::config_example_file();
    return 0;
  }
  if (!parsed.error.empty()) {
    std::cerr << "svcd: " << parsed.error << "\n(see svcd --help)\n";
    return 2;
  }
  if (parsed.check) {
    // The engines file is read as at start, workflows and bindings included;
    // what only an engine can answer (its nodes, files, schema) waits for it.
    std::string why;
    if (!parsed.cfg.engines.empty() && !svc::providers::read_engines_file(parsed.cfg.engines, why)) {
      std::cerr << "svcd: " << why << "\n";
      return 2;
    }
    std::cout << "svcd: configuration is valid\n";
    return 0;
  }
  svc::core::set_log_level(parsed.cfg.log_level);
  svc::core::set_log_format(parsed.cfg.log_format);
  return svc::svcd::run_server(parsed.cfg);
}
