#include "core/config_parser.hpp"
#include "core/option_error.hpp"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <boost/program_options.hpp>

namespace svc::core {
namespace po = boost::program_options;

env_lookup process_environment() {
  return [](const std::string& name) -> std::optional<std::string> {
    if (const char* v = std::getenv(name.c_str()))
      return std::string{v};
    return std::nullopt;
  };
}

namespace {

po::options_description make_description() {
  po::options_description desc{"svcd options"};
  desc.add_options()("help", "print this help")("version", "print version and commit")(
    "config", po::value<std::string>(), "read options from FILE (key = value lines)")(
    "check-config", "check the options and the config file, then exit (0: valid, 2: not)")(
    "print-config-table", "print every option as a markdown table")(
    "print-example-config", "print a config file listing every option, commented, with its default");
  for (auto& o : config_options()) {
    auto help = o.help + " (default: " + o.default_text + ")";
    if (o.repeatable) {
      desc.add_options()(o.name.c_str(), po::value<std::vector<std::string>>()->composing(), help.c_str());
      continue;
    }
    auto* value = po::value<std::string>();
    if (o.is_switch)
      value->implicit_value("true");
    desc.add_options()(o.name.c_str(), value, help.c_str());
  }
  return desc;
}

// Options from the environment, looked up by name so tests can inject them.
void store_environment(const env_lookup& env, po::variables_map& vm) {
  for (auto& o : config_options())
    if (!vm.count(o.name))
      if (auto v = env(env_name(o.name))) {
        if (o.repeatable)
          vm.emplace(o.name, po::variable_value{std::vector<std::string>{*v}, false});
        else
          vm.emplace(o.name, po::variable_value{*v, false});
      }
}

// The option's value as `apply` takes it: a repeated one joined by commas.
std::string text_of(const config_option& o, const po::variable_value& v) {
  if (!o.repeatable)
    return v.as<std::string>();
  std::string joined;
  for (auto& item : v.as<std::vector<std::string>>())
    joined += (joined.empty() ? "" : ",") + item;
  return joined;
}

} // namespace

parsed_config parse_config(int argc, const char* const* argv, const env_lookup& env) {
  parsed_config out;
  try {
    auto desc = make_description();
    po::variables_map vm;
    // No positional options: a stray word is a mistake, never silently ignored.
    po::store(po::command_line_parser(argc, argv).options(desc).positional({}).run(), vm);
    std::ostringstream help;
    help << "usage: svcd [--config FILE] [options]\n" << desc;
    out.help_text = help.str();
    out.help = vm.count("help") > 0;
    out.print_table = vm.count("print-config-table") > 0;
    out.print_example = vm.count("print-example-config") > 0;
    out.version = vm.count("version") > 0;
    out.check = vm.count("check-config") > 0;
    store_environment(env, vm);
    if (vm.count("config")) {
      auto path = vm["config"].as<std::string>();
      std::ifstream file{path};
      if (!file) {
        out.error = "cannot read config file " + path;
        return out;
      }
      // Stored apart and merged under what flags and environment already set:
      // po::store into `vm` would throw "specified more than once" for an
      // option that the environment also sets.
      po::variables_map file_vm;
      po::store(po::parse_config_file(file, desc), file_vm);
      for (auto& [name, value] : file_vm)
        if (!vm.count(name))
          vm.emplace(name, value);
    }
    for (auto& o : config_options()) {
      if (!vm.count(o.name))
        continue;
      auto text = text_of(o, vm[o.name]);
      if (!o.apply(out.cfg, text)) {
        // A URL with userinfo may carry a password (--smtp, --remote-url):
        // named, never echoed, since the message reaches stderr and logs.
        bool may_hold_secret = text.find("://") != std::string::npos && text.find('@') != std::string::npos;
        out.error = "invalid value for --" + o.name
                    + (may_hold_secret ? " (a URL with credentials; not shown)" : ": '" + text + "'");
        return out;
      }
    }
  } catch (const po::error& e) {
    out.error = option_error_text(e);
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

} // namespace svc::core
