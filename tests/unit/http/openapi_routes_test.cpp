// Keeps schema/openapi.yaml and the route tables in agreement: every route
// of http/api_routes.cpp and http/admin_routes.cpp is described, with the
// scope and rate-limit bucket the code enforces, and the spec names no route
// the code lacks (legacy paths, marked `x-legacy-of`, are answered before routing).
#define BOOST_TEST_MODULE openapi_routes
#include "http/pipeline.hpp"

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <boost/test/unit_test.hpp>

namespace {

struct described_operation {
  std::string scope;
  std::string bucket;
  bool legacy = false; ///< `x-legacy-of`: answered by the legacy stage, not a route
};

// "<METHOD> <path>" -> its x-scope and x-rate-limit-bucket, read line by line
// (paths are indented 2 spaces, methods 4, their fields 6).
std::map<std::string, described_operation> read_operations() {
  std::ifstream in{SVC_OPENAPI_PATH};
  BOOST_REQUIRE_MESSAGE(in, "cannot read " SVC_OPENAPI_PATH);
  static const std::set<std::string> methods{"get", "put", "post", "patch", "delete", "head", "options"};
  std::map<std::string, described_operation> ops;
  std::string line, path, current;
  bool in_paths = false;
  while (std::getline(in, line)) {
    if (line == "paths:") {
      in_paths = true;
      continue;
    }
    if (!in_paths)
      continue;
    if (!line.empty() && line[0] != ' ' && line[0] != '#')
      break; // the next top-level section
    if (line.rfind("  /", 0) == 0 && line.back() == ':') {
      path = line.substr(2, line.size() - 3);
      current.clear();
    } else if (line.size() > 5 && line.rfind("    ", 0) == 0 && line[4] != ' ' && line.back() == ':') {
      auto word = line.substr(4, line.size() - 5);
      current = methods.count(word) ? word + " " + path : std::string{};
      if (!current.empty())
        ops[current];
    } else if (!current.empty() && line.rfind("      x-scope: ", 0) == 0) {
      ops[current].scope = line.substr(15);
    } else if (!current.empty() && line.rfind("      x-rate-limit-bucket: ", 0) == 0) {
      ops[current].bucket = line.substr(27);
    } else if (!current.empty() && line.rfind("      x-legacy-of: ", 0) == 0) {
      ops[current].legacy = true;
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
