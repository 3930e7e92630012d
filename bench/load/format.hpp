#pragma once
// printf into a std::string of any length: reports mix fixed-precision
// figures and text of unbounded size (status maps, commands).

#include <string>

namespace svc::bench {

/// `std::snprintf` with `fmt` into a string sized to fit.
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

} // namespace svc::bench
