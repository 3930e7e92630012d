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

struct route {
  boost::beast::http::verb method;
  std::string_view path;       ///< template; `{name}` captures one segment
  schema::scope needs;         ///< `none`: no key needed
  schema::bucket_class bucket; ///< drawn from by every request to the route
  route_handler handler;
  std::string_view summary;    ///< one line, for logs and docs
  bool streams_body = false;   ///< the handler reads the body itself (`request_context::body`): uploads
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
