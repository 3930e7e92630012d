#include "http/stages/stages.hpp"
#include "schema/api_versions.hpp"

namespace svc::http {

bool check_version(request_context& ctx) {
  auto it = ctx.req.find("Svc-Version");
  if (it == ctx.req.end())
    return true; // the team's default applies once the team is known
  std::string_view v = it->value();
  if (schema::is_api_version(v)) {
    ctx.version = std::string{v};
    return true;
  }
  ctx.error = schema::make_api_error(schema::error_code::invalid_api_version,
                                     {{"version", std::string{v.substr(0, 64)}}, {"valid", schema::api_versions_text()}},
                                     "Svc-Version");
  return false;
}

} // namespace svc::http
