#include "core/option_error.hpp"

#include <cctype>

#include <boost/program_options/errors.hpp>

namespace svc::core {
namespace po = boost::program_options;

// Boost's `what()` fills its `%placeholder%` tokens in a loop that never ends
// when the option's name contains its own token (found by fuzz_config_file: a
// config line `data-option '%canonical_option%'dir = ...` hung svcd at start).
// Errors without an option name have fixed texts and are safe.
std::string option_error_text(const po::error& e) {
  auto* named = dynamic_cast<const po::error_with_option_name*>(&e);
  if (!named)
    return e.what();
  std::string name;
  for (char c : named->get_option_name().substr(0, 100))
    name.push_back(std::isprint(static_cast<unsigned char>(c)) ? c : '?');
  if (dynamic_cast<const po::unknown_option*>(&e))
    return "unknown option '" + name + "'";
  if (dynamic_cast<const po::multiple_occurrences*>(&e))
    return "option '" + name + "' given more than once";
  if (dynamic_cast<const po::required_option*>(&e))
    return "option '" + name + "' is required";
  if (auto* syntax = dynamic_cast<const po::invalid_syntax*>(&e)) {
    if (syntax->kind() == po::invalid_syntax::missing_parameter)
      return "option '" + name + "' needs a value";
    return "malformed option '" + name + "' (a config file line is `name = value`)";
  }
  return "invalid value or use of option '" + name + "'";
}

} // namespace svc::core
