#pragma once
// What this binary was built from: the project version and the git commit,
// fixed when CMake configured the build (`svcd --version`, svc_build_info).

#include <string>

namespace svc::core {

/// The version of CMake's project(), e.g. "0.1.0".
const std::string& build_version();
/// `git rev-parse --short HEAD` of the source tree at configure time; "unknown" outside git.
const std::string& build_commit();
/// The line `--version` prints: "<program> <version> (commit <commit>)".
std::string version_line(const std::string& program);

} // namespace svc::core
