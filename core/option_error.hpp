#pragma once
// What a command line (svcd's or svcctl's) got wrong, said without Boost's
// `what()`, which can loop forever on a hostile option name.

#include <string>

namespace boost::program_options {
class error;
} // namespace boost::program_options

namespace svc::core {

/// One line naming the option and the mistake (unknown, given twice, missing or bad value...).
std::string option_error_text(const boost::program_options::error& e);

} // namespace svc::core
