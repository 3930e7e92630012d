#pragma once
// The published `Svc-Version` dates. They differ in pricing only.

#include <string>
#include <string_view>
#include <vector>

namespace svc::schema {

/// Every valid version, oldest first.
const std::vector<std::string>& api_versions();

/// The newest version: a new team's `default_api_version`.
const std::string& newest_api_version();

/// True if `v` is a published version.
bool is_api_version(std::string_view v);

/// The versions joined with ", " (for error messages).
std::string api_versions_text();

} // namespace svc::schema
