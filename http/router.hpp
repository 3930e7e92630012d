#pragma once
// Route tables: method + path template (`/v1/api_keys/{id}/rotate`) -> the
// handler, the scope it needs and the rate bucket it draws from. Each route
// declares these once; nothing else decides them.

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <ostream> // Boost 1.81 string_view needs it before Beast headers

#include <boost/beast/http/verb.hpp>

#include "schema/rate_buckets.hpp"
#include "schema/scopes.hpp"

namespace svc::http {

struct request_context;

/// Handles a request that passed the pipeline; answers through the context.
using route_handler = void (*)(const std::shared_ptr<request_context>&);

/// Which node of a cluster answers a route (`request_route.hpp`): the one it
/// arrives at, or the owner of the shard its path or body names.
enum class shard_rule : uint8_t {
  here,          ///< names no team: docs, probes, lists across teams
  team_in_path,  ///< `{id}` is a team id
  id_in_path,    ///< `{id}` is a resource id (key, endpoint, job), which names its shard
  shard_in_path, ///< `{shard}` is a shard number
  team_in_body,  ///< the JSON body's `team_id`
  new_team,      ///< a team create: any node may answer for one of its own shards
};

struct route {
  boost::beast::http::verb method;
  std::string_view path;       ///< template; `{name}` captures one segment
  schema::scope needs;         ///< `none`: no key needed
  schema::bucket_class bucket; ///< drawn from by every request to the route
  route_handler handler;
  std::string_view summary;    ///< one line, for logs and docs
  bool streams_body = false;   ///< the handler reads the body itself (`request_context::body`): uploads
  shard_rule owner = shard_rule::here; ///< in a cluster, whose request it is (admin routes; the API's go by key)
};

/// Captured path segments by name.
using path_params = std::vector<std::pair<std::string_view, std::string>>;

/// The outcome of matching: a route, or the methods the path does allow (405), or neither (404).
struct route_match {
  const route* matched = nullptr;
  path_params params;
  std::string allow; ///< comma-separated methods when the path exists for others
};

class router {
public:
  explicit router(std::vector<route> routes) : routes_{std::move(routes)} {}
  /// Matches a request path (without query string).
  route_match match(boost::beast::http::verb method, std::string_view path) const;
  const std::vector<route>& routes() const { return routes_; }

private:
  std::vector<route> routes_;
};

/// Splits the path of a target from its query string.
std::pair<std::string_view, std::string_view> split_target(std::string_view target);

} // namespace svc::http
