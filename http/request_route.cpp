#include "http/request_route.hpp"

#include <boost/json/parse.hpp>

#include "http/pipeline.hpp"
#include "http/router.hpp"
#include "http/stages/stages.hpp"
#include "schema/api_key_format.hpp"

namespace svc::http {
namespace {

request_route to_shard(std::optional<core::shard_id> shard, bool redirect = false) {
  if (!shard)
    return {};
  return {request_route::where::shard, *shard, redirect};
}

// The path segments after `prefix` ("/admin/teams/"), split at '/'.
std::vector<std::string_view> segments_after(std::string_view path, std::string_view prefix) {
  std::vector<std::string_view> out;
  if (path.substr(0, prefix.size()) != prefix)
    return out;
  path.remove_prefix(prefix.size());
  while (!path.empty()) {
    auto slash = path.find('/');
    out.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos)
      break;
    path.remove_prefix(slash + 1);
  }
  return out;
}

// The `team_id` of a JSON body, if it has one that is text.
std::optional<std::string> body_team_id(const std::string& body) {
  boost::system::error_code ec;
  auto v = boost::json::parse(body, ec);
  if (ec || !v.is_object())
    return std::nullopt;
  auto* id = v.as_object().if_contains("team_id");
  if (!id || !id->is_string())
    return std::nullopt;
  return std::string{id->as_string()};
}

} // namespace

request_route route_api_request(const http_request& head) {
  auto path = split_target(head.target()).first;
  // Signed output URLs carry no key: the job id names the shard, and the
  // bytes never cross between nodes.
  if (auto parts = segments_after(path, "/v1/outputs/"); !parts.empty())
    return to_shard(core::shard_of_id(parts[0]), true);
  auto secret = schema::api_key_secret(presented_key(head));
  if (!secret)
    return {};
  // A body its handler streams (an upload) is not forwarded: its client is sent to the owner.
  static const router api{api_routes()};
  auto match = api.match(head.method(), path);
  return to_shard(core::shard_of_key_secret(*secret), match.matched && match.matched->streams_body);
}

std::optional<uint16_t> parse_shard_number(std::string_view text) {
  if (text.empty() || text.size() > 3 || (text.size() > 1 && text.front() == '0'))
    return std::nullopt;
  unsigned n = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return std::nullopt;
    n = n * 10 + static_cast<unsigned>(c - '0');
  }
  if (n >= core::shard_count)
    return std::nullopt;
  return static_cast<uint16_t>(n);
}

request_route route_admin_request(const http_request& req) {
  // The shard rule is declared with each route (admin_routes.cpp); an
  // unknown path is answered (404, 405) where it arrives.
  static const router admin{admin_routes()};
  auto match = admin.match(req.method(), split_target(req.target()).first);
  if (!match.matched)
    return {};
  auto param = [&](std::string_view name) {
    for (auto& [key, value] : match.params)
      if (key == name)
        return value;
    return std::string{};
  };
  switch (match.matched->owner) {
    case shard_rule::here:
      return {};
    case shard_rule::new_team:
      return {request_route::where::new_team};
    case shard_rule::team_in_path:
      return to_shard(core::shard_of_team(param("id")));
    case shard_rule::id_in_path:
      return to_shard(core::shard_of_id(param("id")));
    case shard_rule::shard_in_path: {
      // A shard's move starts on its owner (a malformed number is refused where it arrives).
      auto shard = parse_shard_number(param("shard"));
      return shard ? to_shard(static_cast<core::shard_id>(*shard)) : request_route{};
    }
    case shard_rule::team_in_body: {
      auto team = body_team_id(req.body());
      return team ? to_shard(core::shard_of_team(*team)) : request_route{};
    }
  }
  return {};
}

} // namespace svc::http
