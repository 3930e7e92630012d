#pragma once
// What this binary was built from: the CMake project version and the git
// commit at configure time ("unknown" outside a git checkout).

#include <string_view>

namespace svc::core {

/// `0.1.0`
std::string_view build_version();
/// The abbreviated commit hash, or "unknown".
std::string_view build_commit();

} // namespace svc::core
