// Keeps schema/openapi.yaml and the route tables in agreement: every route
// of http/api_routes.cpp and http/admin_routes.cpp is described, with the
// scope and rate-limit bucket the code enforces, the path parameters its
// template names and the error statuses every public route can answer, and
// the spec names no route the code lacks (legacy paths, marked `x-legacy-of`,
// are answered before routing).
#define BOOST_TEST_MODULE openapi_routes
#include "http/pipeline.hpp"

#include <algorithm>
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
  bool legacy = false;               ///< `x-legacy-of`: answered by the legacy stage, not a route
  std::set<std::string> statuses;    ///< the keys of `responses` ("200", "404", ...)
  std::set<std::string> path_params; ///< `in: path` parameters, of the path or the operation
};

std::string trimmed(const std::string& s) {
  auto b = s.find_first_not_of(' ');
  auto e = s.find_last_not_of(" \r");
  return b == std::string::npos ? std::string{} : s.substr(b, e - b + 1);
}

// "<METHOD> <path>" -> its x-scope, x-rate-limit-bucket, response statuses
// and path parameters, read line by line (paths are indented 2 spaces,
// methods 4, their fields 6, responses 8; a parameter is `- name: X`
// followed by `in: path`).
std::map<std::string, described_operation> read_operations() {
  std::ifstream in{SVC_OPENAPI_PATH};
  BOOST_REQUIRE_MESSAGE(in, "cannot read " SVC_OPENAPI_PATH);
  static const std::set<std::string> methods{"get", "put", "post", "patch", "delete", "head", "options"};
  std::map<std::string, described_operation> ops;
  std::string line, path, current, pending_param;
  std::set<std::string> path_level_params;
  bool in_paths = false;
  while (std::getline(in, line)) {
    auto text = trimmed(line);
    if (!pending_param.empty() && !text.empty()) {
      if (text == "in: path")
        (current.empty() ? path_level_params : ops[current].path_params).insert(pending_param);
      pending_param.clear();
    }
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
      path_level_params.clear();
    } else if (line.size() > 5 && line.rfind("    ", 0) == 0 && line[4] != ' ' && line.back() == ':') {
      auto word = line.substr(4, line.size() - 5);
      current = methods.count(word) ? word + " " + path : std::string{};
      if (!current.empty())
        ops[current].path_params.insert(path_level_params.begin(), path_level_params.end());
    } else if (text.rfind("- name: ", 0) == 0) {
      pending_param = text.substr(8);
    } else if (!current.empty() && line.size() > 13 && line.rfind("        '", 0) == 0 && line[12] == '\''
               && line[13] == ':') {
      ops[current].statuses.insert(line.substr(9, 3));
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
