// svcd: the Svc server. Options: `svcd --help`; the operator contract is in README.md.
#include <iostream>

#include "core/config_parser.hpp"
#include "core/log.hpp"
#include "http/server.hpp"

int main(int argc, char** argv) {
  auto parsed = svc::core::parse_config(argc, argv);
  if (parsed.help) {
    std::cout << parsed.help_text;
    return 0;
  }
  if (parsed.print_table) {
    std::cout << svc::core::config_markdown_table();
    return 0;
  }
  if (!parsed.error.empty()) {
    std::cerr << "svcd: " << parsed.error << "\n(see svcd --help)\n";
    return 2;
  }
  svc::core::set_log_level(parsed.cfg.log_level);
  svc::core::set_log_format(parsed.cfg.log_format);
  return svc::http::run_server(parsed.cfg);
}
