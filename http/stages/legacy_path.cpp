#include "core/time_format.hpp"
#include "http/stages/stages.hpp"

namespace svc::http {
namespace {

struct legacy_prefix {
  std::string_view old_prefix, new_prefix;
};

// The pre-V1 resource paths and their successors; sub-paths map by prefix.
constexpr legacy_prefix legacy_prefixes[] = {{"/v1/generations", "/v1/images"},
                                             {"/v1/video-generations", "/v1/videos"}};

// When the V1 redesign deprecated the legacy paths: the first V1 version, 2026-01-15.
constexpr int64_t deprecated_since_unix = 1768435200;

} // namespace

bool check_legacy_path(request_context& ctx) {
  for (auto& p : legacy_prefixes) {
    auto path = ctx.path;
    if (path.substr(0, p.old_prefix.size()) != p.old_prefix)
      continue;
    auto rest = path.substr(p.old_prefix.size());
    if (!rest.empty() && rest.front() != '/')
      continue; // `/v1/generationsX` is just an unknown path
    auto target = std::string{p.new_prefix} + std::string{rest};
    auto [_, query] = split_target(ctx.req.target());
    if (!query.empty())
      target += "?" + std::string{query};
    auto sunset = ctx.svc.cfg.legacy_sunset;
    legacy_redirect legacy;
    legacy.headers = {{"Svc-Deprecated", "route"},
                      {"Sunset", core::format_http_date(sunset)},
                      {"Deprecation", "@" + std::to_string(deprecated_since_unix)}};
    if (ctx.svc.clock->now() < sunset) {
      legacy.headers.emplace_back("Location", target);
    } else {
      ctx.error = schema::make_api_error(schema::error_code::route_sunset,
                                         {{"path", std::string{p.old_prefix}},
                                          {"sunset", core::format_iso8601(sunset).substr(0, 10)},
                                          {"replacement", std::string{p.new_prefix}}});
    }
    ctx.legacy = std::move(legacy);
    return false;
  }
  return true;
}

} // namespace svc::http
