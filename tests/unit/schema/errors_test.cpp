#include "schema/errors.hpp"

#include <boost/test/unit_test.hpp>

#include <cctype>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "openapi_document.hpp"
#include "schema/error_page.hpp"

BOOST_AUTO_TEST_SUITE(schema_errors)

#ifndef SVC_OPENAPI_PATH
#error "SVC_OPENAPI_PATH must name schema/openapi.yaml"
#endif

namespace {

using namespace svc::schema;

constexpr std::size_t code_count = static_cast<std::size_t>(error_code::generation_timeout) + 1;

// components/schemas/ErrorCode of the parsed spec.
const boost::json::object& openapi_error_code_schema(const boost::json::value& spec) {
  auto* schema = spec.at("components").at("schemas").as_object().if_contains("ErrorCode");
  BOOST_REQUIRE_MESSAGE(schema, "no ErrorCode schema in openapi.yaml");
  return schema->as_object();
}

struct catalogue_row {
  std::string code;
  std::int64_t status = 0;
  std::string type;
};

// The items of the top-level `x-error-catalogue`.
std::vector<catalogue_row> openapi_error_catalogue(const boost::json::value& spec) {
  auto* items = spec.as_object().if_contains("x-error-catalogue");
  BOOST_REQUIRE_MESSAGE(items, "no top-level x-error-catalogue in openapi.yaml");
  std::vector<catalogue_row> out;
  for (auto& item : items->as_array()) {
    auto& row = item.as_object();
    out.push_back({std::string{row.at("code").as_string()}, row.at("status").as_int64(),
                   std::string{row.at("type").as_string()}});
  }
  return out;
}

const boost::json::value& spec() {
  static const auto parsed = svc::test::load_yaml_as_json(SVC_OPENAPI_PATH);
  return parsed;
}

} // namespace

BOOST_AUTO_TEST_CASE(every_code_has_one_row_in_enum_order) {
  auto& rows = error_catalogue();
  BOOST_REQUIRE(rows.size() == code_count);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    BOOST_TEST(static_cast<std::size_t>(rows[i].code) == i, "row " << i << " (" << rows[i].name << ")");
    BOOST_TEST(&svc::schema::info(static_cast<error_code>(i)) == &rows[i]);
  }
}

BOOST_AUTO_TEST_CASE(every_row_is_complete) {
  for (auto& row : error_catalogue()) {
    BOOST_TEST(!row.name.empty());
    for (char ch : row.name)
      BOOST_TEST((std::islower(static_cast<unsigned char>(ch)) || ch == '_'), row.name << " is not snake_case");
    BOOST_TEST(row.status >= 400, row.name);
    BOOST_TEST(row.status <= 599, row.name);
    BOOST_TEST(!row.message_template.empty(), row.name);
    BOOST_TEST(!row.description.empty(), row.name);
  }
}

BOOST_AUTO_TEST_CASE(names_are_unique_and_round_trip) {
  std::set<std::string_view> names;
  for (auto& row : error_catalogue()) {
    BOOST_TEST(names.insert(row.name).second, "duplicate " << row.name);
    auto back = error_code_from_name(row.name);
    BOOST_REQUIRE_MESSAGE(back.has_value(), row.name);
    BOOST_TEST(static_cast<int>(*back) == static_cast<int>(row.code));
    BOOST_TEST(svc::schema::to_string(row.code) == row.name);
  }
  BOOST_TEST(!error_code_from_name("").has_value());
  BOOST_TEST(!error_code_from_name("not_a_code").has_value());
  BOOST_TEST(!error_code_from_name("Invalid_Body").has_value());
}

BOOST_AUTO_TEST_CASE(exactly_five_types_are_used) {
  std::set<std::string_view> types;
  for (auto& row : error_catalogue())
    types.insert(svc::schema::to_string(row.type));
  BOOST_TEST(types.size() == 5u);
  BOOST_TEST((types
              == std::set<std::string_view>{"invalid_request", "authentication", "permission", "rate_limit",
                                            "internal"}));
}

// The statuses the contract (spec and decisions) fixes for each code.
BOOST_AUTO_TEST_CASE(statuses_and_types_follow_the_contract) {
  const std::map<std::string, std::pair<int, std::string>> contract{
    {"invalid_body", {400, "invalid_request"}},          {"invalid_parameter", {400, "invalid_request"}},
    {"unknown_parameter", {400, "invalid_request"}},     {"api_key_in_query", {400, "invalid_request"}},
    {"invalid_api_version", {400, "invalid_request"}},   {"malformed_request", {400, "invalid_request"}},
    {"missing_api_key", {401, "authentication"}},        {"invalid_api_key", {401, "authentication"}},
    {"api_key_revoked", {401, "authentication"}},      {"key_rotating", {403, "permission"}},
    {"insufficient_credits", {402, "invalid_request"}},  {"endpoint_limit_reached", {400, "invalid_request"}},
    {"missing_scope", {403, "permission"}},              {"team_disabled", {403, "permission"}},
    {"invalid_signature", {403, "permission"}},          {"resource_not_found", {404, "invalid_request"}},
    {"route_not_found", {404, "invalid_request"}},       {"method_not_allowed", {405, "invalid_request"}},
    {"upload_too_slow", {408, "invalid_request"}},
    {"idempotency_key_in_use", {409, "invalid_request"}}, {"invalid_state", {409, "invalid_request"}},
    {"url_expired", {410, "invalid_request"}},           {"route_sunset", {410, "invalid_request"}},
    {"body_too_large", {413, "invalid_request"}},        {"unsupported_media_type", {415, "invalid_request"}},
    {"range_not_satisfiable", {416, "invalid_request"}},
    {"headers_too_large", {431, "invalid_request"}},     {"idempotency_key_reused", {422, "invalid_request"}},
    {"too_many_requests", {429, "rate_limit"}},          {"too_many_uploads", {429, "rate_limit"}},
    {"internal_error", {500, "internal"}},
    {"unavailable", {503, "internal"}},               {"storage_unavailable", {503, "internal"}},
    {"owner_unavailable", {503, "internal"}},
    {"insufficient_storage", {507, "internal"}},
    // The OpenAI-compatible routes' ends of a job without outputs: OpenAI's status classes.
    {"generation_rejected", {400, "invalid_request"}}, {"generation_failed", {502, "internal"}},
    {"generation_timeout", {504, "internal"}},
  };
  BOOST_TEST(contract.size() == code_count);
  for (auto& row : error_catalogue()) {
    auto it = contract.find(std::string{row.name});
    BOOST_REQUIRE_MESSAGE(it != contract.end(), row.name << " is not in the contract table");
    BOOST_TEST(row.status == it->second.first, row.name);
    BOOST_TEST(svc::schema::to_string(row.type) == it->second.second, row.name);
  }
}

BOOST_AUTO_TEST_CASE(openapi_error_code_enum_lists_every_code_in_order) {
  auto& codes = openapi_error_code_schema(spec()).at("enum").as_array();
  auto& rows = error_catalogue();
  BOOST_REQUIRE_EQUAL(codes.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i)
    BOOST_TEST(codes[i].as_string() == rows[i].name, "ErrorCode enum item " << i);
}

BOOST_AUTO_TEST_CASE(openapi_error_catalogue_matches_code_status_and_type) {
  auto listed = openapi_error_catalogue(spec());
  auto& rows = error_catalogue();
  BOOST_REQUIRE_EQUAL(listed.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    BOOST_TEST(listed[i].code == rows[i].name, "x-error-catalogue item " << i);
    BOOST_TEST(listed[i].status == rows[i].status, rows[i].name);
    BOOST_TEST(listed[i].type == svc::schema::to_string(rows[i].type), rows[i].name);
  }
}

BOOST_AUTO_TEST_CASE(openapi_description_table_lists_every_code) {
  std::string text{openapi_error_code_schema(spec()).at("description").as_string()};
  for (auto& row : error_catalogue()) {
    auto name = std::string{row.name};
    auto pos = text.find("| " + name + " ");
    BOOST_REQUIRE_MESSAGE(pos != std::string::npos, name << " missing from the ErrorCode description table");
    auto line = text.substr(pos, text.find('\n', pos) - pos);
    BOOST_TEST(line.find("| " + std::to_string(row.status) + " |") != std::string::npos, line);
    BOOST_TEST(line.find("| " + std::string{svc::schema::to_string(row.type)} + " |") != std::string::npos, line);
  }
}

BOOST_AUTO_TEST_CASE(error_page_has_an_anchor_per_code) {
  auto html = svc::schema::error_page_html();
  for (auto& row : error_catalogue()) {
    auto anchor = "id=\"" + std::string{row.name} + "\"";
    BOOST_TEST(html.find(anchor) != std::string::npos, anchor);
    BOOST_TEST(html.find(anchor) == html.rfind(anchor), anchor << " twice");
  }
  BOOST_TEST(html.rfind("<!doctype html>", 0) == 0u);
  BOOST_TEST(html.find("<script") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(make_api_error_fills_the_template) {
  auto e = make_api_error(error_code::too_many_requests, {{"bucket", "images_post"}, {"seconds", "3"}});
  BOOST_TEST(static_cast<int>(e.code) == static_cast<int>(error_code::too_many_requests));
  BOOST_TEST(e.message == "Rate limit exceeded for bucket 'images_post'. Retry in 3 seconds.");
  BOOST_TEST(e.param == "");

  auto v = make_api_error(error_code::invalid_api_version, {{"version", "2020-01-01"}, {"valid", "2026-01-15, 2026-09-01"}});
  BOOST_TEST(v.message == "'2020-01-01' is not a valid Svc-Version. Valid versions: 2026-01-15, 2026-09-01.");
}

BOOST_AUTO_TEST_CASE(make_api_error_uses_the_param_for_its_placeholder) {
  auto e = make_api_error(error_code::unknown_parameter, {}, "colour");
  BOOST_TEST(e.message == "Unknown parameter 'colour'.");
  BOOST_TEST(e.param == "colour");
  auto i = make_api_error(error_code::invalid_parameter, {{"detail", "must be 1..100"}}, "limit");
  BOOST_TEST(i.message == "Invalid value for 'limit': must be 1..100.");
  BOOST_TEST(i.param == "limit");
}

BOOST_AUTO_TEST_CASE(make_api_error_leaves_no_placeholder) {
  for (auto& row : error_catalogue()) {
    auto e = make_api_error(row.code);
    BOOST_TEST(e.message.find('{') == std::string::npos, row.name << ": " << e.message);
    BOOST_TEST(e.message.find('}') == std::string::npos, row.name << ": " << e.message);
  }
  auto plain = make_api_error(error_code::missing_api_key, {{"unused", "x"}});
  BOOST_TEST(plain.message == svc::schema::info(error_code::missing_api_key).message_template);
}

BOOST_AUTO_TEST_SUITE_END()
