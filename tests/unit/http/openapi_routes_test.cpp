// Keeps schema/openapi.yaml and the route tables in agreement: every route
// of http/api_routes.cpp and http/admin_routes.cpp is described, with the
// scope and rate-limit bucket the code enforces, the path parameters its
// template names and the error statuses every public route can answer, and
// the spec names no route the code lacks (legacy paths, marked `x-legacy-of`,
// are answered before routing).
#include "http/pipeline.hpp"
#include "openapi_document.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(http_openapi_routes)

namespace {

struct described_operation {
  std::string scope;
  std::string bucket;
  bool legacy = false;               ///< `x-legacy-of`: answered by the legacy stage, not a route
  std::set<std::string> statuses;    ///< the keys of `responses` ("200", "404", ...)
  std::set<std::string> path_params; ///< `in: path` parameters, of the path or the operation
};

// The `in: path` parameter names of a parameter list (items may be $refs to components/parameters).
void add_path_params(const boost::json::value& spec, const boost::json::object& holder, std::set<std::string>& out) {
  auto* list = holder.if_contains("parameters");
  if (!list)
    return;
  for (auto& item : list->as_array()) {
    auto* param = &item.as_object();
    if (auto* ref = param->if_contains("$ref")) {
      std::string pointer{ref->as_string()};
      BOOST_TEST_REQUIRE(pointer.rfind("#/", 0) == 0u, pointer);
      param = &spec.at_pointer(pointer.substr(1)).as_object();
    }
    if (param->at("in") == "path")
      out.emplace(param->at("name").as_string());
  }
}

std::string text_or_empty(const boost::json::object& o, const char* name) {
  auto* v = o.if_contains(name);
  return v ? std::string{v->as_string()} : std::string{};
}

// "<method> <path>" -> its x-scope, x-rate-limit-bucket, response statuses and path parameters, from the spec
// as yaml-cpp parses it.
std::map<std::string, described_operation> read_operations() {
  static const std::set<std::string> methods{"get", "put", "post", "patch", "delete", "head", "options"};
  auto spec = svc::test::load_yaml_as_json(SVC_OPENAPI_PATH);
  std::map<std::string, described_operation> ops;
  for (auto& [path, item] : spec.at("paths").as_object()) {
    std::set<std::string> path_level_params;
    add_path_params(spec, item.as_object(), path_level_params);
    for (auto& [method, operation] : item.as_object()) {
      if (!methods.count(std::string{method}))
        continue;
      auto& op = operation.as_object();
      auto& described = ops[std::string{method} + " " + std::string{path}];
      described.scope = text_or_empty(op, "x-scope");
      described.bucket = text_or_empty(op, "x-rate-limit-bucket");
      described.legacy = op.contains("x-legacy-of");
      for (auto& [status, response] : op.at("responses").as_object())
        described.statuses.emplace(status);
      described.path_params = path_level_params;
      add_path_params(spec, op, described.path_params);
    }
  }
  return ops;
}

std::string key_of(const svc::http::route& r) {
  std::string method{boost::beast::http::to_string(r.method)};
  for (auto& c : method)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return method + " " + std::string{r.path};
}

} // namespace

BOOST_AUTO_TEST_CASE(every_public_route_is_described_with_its_scope_and_bucket) {
  auto ops = read_operations();
  for (auto& r : svc::http::api_routes()) {
    auto it = ops.find(key_of(r));
    BOOST_TEST_REQUIRE((it != ops.end()), key_of(r) << " is not in openapi.yaml");
    BOOST_TEST(it->second.scope == std::string{svc::schema::to_string(r.needs)}, key_of(r));
    BOOST_TEST(it->second.bucket == std::string{svc::schema::to_string(r.bucket)}, key_of(r));
  }
}

BOOST_AUTO_TEST_CASE(every_admin_route_is_described) {
  auto ops = read_operations();
  for (auto& r : svc::http::admin_routes()) {
    auto it = ops.find(key_of(r));
    BOOST_TEST_REQUIRE((it != ops.end()), key_of(r) << " is not in openapi.yaml");
    BOOST_TEST(it->second.scope == (r.needs == svc::schema::scope::none ? "none" : "admin"), key_of(r));
    BOOST_TEST(it->second.bucket == "none", key_of(r) << ": the admin listener has no rate limit");
  }
}

BOOST_AUTO_TEST_CASE(every_path_parameter_of_a_route_is_declared) {
  auto ops = read_operations();
  auto check = [&](const svc::http::route& r) {
    auto it = ops.find(key_of(r));
    BOOST_TEST_REQUIRE((it != ops.end()), key_of(r) << " is not in openapi.yaml");
    std::set<std::string> in_template;
    std::string_view p{r.path};
    for (auto open = p.find('{'); open != std::string_view::npos; open = p.find('{', open + 1)) {
      auto close = p.find('}', open);
      BOOST_TEST_REQUIRE(close != std::string_view::npos, key_of(r));
      in_template.emplace(p.substr(open + 1, close - open - 1));
    }
    BOOST_TEST((it->second.path_params == in_template), key_of(r) << ": path parameters differ");
  };
  for (auto& r : svc::http::api_routes())
    check(r);
  for (auto& r : svc::http::admin_routes())
    check(r);
}

// Every public answer draws a bucket token and may fail the common stages,
// so each public operation lists those statuses: 429 and 400 (a key in the
// query, a bad Svc-Version), 405, 431, 500; a route that needs a key also 401
// and 403 (missing_scope).
BOOST_AUTO_TEST_CASE(every_public_route_lists_the_errors_of_the_common_stages) {
  auto ops = read_operations();
  for (auto& r : svc::http::api_routes()) {
    auto it = ops.find(key_of(r));
    BOOST_TEST_REQUIRE((it != ops.end()), key_of(r) << " is not in openapi.yaml");
    auto& statuses = it->second.statuses;
    std::set<std::string> expected{"400", "405", "429", "431", "500"};
    if (r.needs != svc::schema::scope::none) {
      expected.insert("401");
      expected.insert("403");
      expected.insert("503");
    }
    for (auto& status : expected)
      BOOST_TEST(statuses.count(status) == 1u, key_of(r) << " lists no " << status << " response");
    BOOST_TEST(std::any_of(statuses.begin(), statuses.end(), [](const std::string& s) { return s[0] == '2'; }),
               key_of(r) << " lists no success response");
  }
}

BOOST_AUTO_TEST_CASE(the_spec_describes_no_route_the_code_lacks) {
  std::set<std::string> served;
  for (auto& r : svc::http::api_routes())
    served.insert(key_of(r));
  for (auto& r : svc::http::admin_routes())
    served.insert(key_of(r));
  auto ops = read_operations();
  BOOST_TEST(ops.size() >= served.size());
  for (auto& [op, described] : ops)
    if (!described.legacy)
      BOOST_TEST(served.count(op) == 1u, op << " is described but not served");
}

BOOST_AUTO_TEST_SUITE_END()
