#pragma once
// The message of a failed system call: what was tried, then errno's text.

#include <cerrno>
#include <cstring>
#include <string>

namespace svc::persistence {

/// `what: <strerror(errno)>`, read at once, before errno changes.
inline std::string os_error(const std::string& what) { return what + ": " + std::strerror(errno); }

} // namespace svc::persistence
