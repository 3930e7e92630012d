#include "schema/api_versions.hpp"

#include <algorithm>

namespace svc::schema {

const std::vector<std::string>& api_versions() {
  static const std::vector<std::string> versions{"2026-01-15", "2026-09-01"};
  return versions;
}

const std::string& newest_api_version() { return api_versions().back(); }

bool is_api_version(std::string_view v) {
  auto& all = api_versions();
  return std::find(all.begin(), all.end(), v) != all.end();
}

std::string api_versions_text() {
  std::string out;
  for (auto& v : api_versions())
    out += (out.empty() ? "" : ", ") + v;
  return out;
}

} // namespace svc::schema
