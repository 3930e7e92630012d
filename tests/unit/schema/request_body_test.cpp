#include "schema/request_body.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

BOOST_AUTO_TEST_SUITE(schema_request_body)

namespace {

using namespace svc::schema;

void expect(const checked<boost::json::object>& r, error_code code, const std::string& message) {
  BOOST_REQUIRE(!r);
  BOOST_TEST((r.error().code == code));
  BOOST_TEST(r.error().message == message);
  BOOST_TEST(r.error().param.empty());
}

} // namespace

BOOST_AUTO_TEST_CASE(an_empty_body_is_refused_unless_the_route_allows_it) {
  for (std::string_view body : {"", " \r\n\t"}) {
    expect(parse_request_body(body, std::nullopt), error_code::invalid_body,
           "The request body could not be parsed: the body is empty; send a JSON object.");
    auto allowed = parse_request_body(body, std::nullopt, empty_body::allowed);
    BOOST_REQUIRE(bool(allowed));
    BOOST_TEST(allowed.value().empty());
  }
  // Nothing was sent, so its declared type does not matter.
  BOOST_TEST(bool(parse_request_body("", std::string_view{"text/plain"}, empty_body::allowed)));
}

BOOST_AUTO_TEST_CASE(the_media_type_must_be_json_in_any_case_with_any_parameters) {
  for (std::string_view type : {"application/json", "Application/JSON", "application/json; charset=utf-8"})
    BOOST_TEST(bool(parse_request_body(R"({"a": 1})", type)), type);
  BOOST_TEST(bool(parse_request_body(R"({"a": 1})", std::nullopt)));
  for (std::string_view type : {"text/plain", "application/jsonx", "application/json-patch+json", ""})
    expect(parse_request_body(R"({"a": 1})", type), error_code::unsupported_media_type,
           "Send the body as application/json.");
}

BOOST_AUTO_TEST_CASE(the_body_must_be_one_json_object) {
  auto ok = parse_request_body(R"({"a": [1, {"b": null}]})", std::nullopt);
  BOOST_REQUIRE(bool(ok));
  BOOST_TEST(ok.value().at("a").as_array().size() == 2u);
  expect(parse_request_body("[1, 2]", std::nullopt), error_code::invalid_body,
         "The request body could not be parsed: not a JSON object.");
  auto broken = parse_request_body(R"({"a": )", std::nullopt);
  BOOST_REQUIRE(!broken);
  BOOST_TEST((broken.error().code == error_code::invalid_body));
  BOOST_TEST(broken.error().message.rfind("The request body could not be parsed: not valid JSON (", 0) == 0);
}

BOOST_AUTO_TEST_CASE(nesting_is_limited_to_32_levels) {
  auto nested = [](int depth) {
    std::string s;
    for (int i = 1; i < depth; ++i)
      s += R"({"a":)";
    s += "{}";
    return s + std::string(depth - 1, '}');
  };
  BOOST_TEST(bool(parse_request_body(nested(32), std::nullopt)));
  auto deep = parse_request_body(nested(33), std::nullopt);
  BOOST_REQUIRE(!deep);
  BOOST_TEST((deep.error().code == error_code::invalid_body));
}

BOOST_AUTO_TEST_SUITE_END()
