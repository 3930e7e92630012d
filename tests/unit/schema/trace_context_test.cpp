#include "schema/trace_context.hpp"

#define BOOST_TEST_MODULE schema_trace_context
#include <boost/test/unit_test.hpp>

#include <string>

namespace {

using svc::schema::parse_traceparent;
using svc::schema::valid_client_request_id;

const std::string trace = "4bf92f3577b34da6a3ce929d0e0e4736";
const std::string valid = "00-" + trace + "-00f067aa0ba902b7-01";

} // namespace

BOOST_AUTO_TEST_CASE(a_client_request_id_is_short_and_of_safe_characters) {
  BOOST_TEST(valid_client_request_id("abc-123_x.y:z"));
  BOOST_TEST(valid_client_request_id(std::string(128, 'z')));
  BOOST_TEST(!valid_client_request_id(""));
  BOOST_TEST(!valid_client_request_id(std::string(129, 'z')));
  BOOST_TEST(!valid_client_request_id("a b"));
  BOOST_TEST(!valid_client_request_id("a\"b"));
  BOOST_TEST(!valid_client_request_id("a=b"));
  BOOST_TEST(!valid_client_request_id("a\nb"));
  BOOST_TEST(!valid_client_request_id("caf\xc3\xa9"));
  BOOST_TEST(!valid_client_request_id("svc_live_" + std::string(64, 'a')), "an API key is never logged as an id");
  BOOST_TEST(!valid_client_request_id(std::string(64, 'f')), "nor a key's secret or the admin token");
  BOOST_TEST(valid_client_request_id(std::string(31, 'f')));
  BOOST_TEST(valid_client_request_id("4bf92f3577b34da6a3ce929d0e0e4736-x"));
}

BOOST_AUTO_TEST_CASE(a_valid_traceparent_gives_its_trace_id) {
  auto t = parse_traceparent(valid);
  BOOST_REQUIRE(t.has_value());
  BOOST_TEST(t->trace_id == trace);
}

BOOST_AUTO_TEST_CASE(a_later_version_may_append_fields) {
  BOOST_TEST(parse_traceparent("01-" + trace + "-00f067aa0ba902b7-01").has_value());
  BOOST_TEST(parse_traceparent("01-" + trace + "-00f067aa0ba902b7-01-what-comes").has_value());
  BOOST_TEST(!parse_traceparent("01-" + trace + "-00f067aa0ba902b7-01x").has_value());
}

BOOST_AUTO_TEST_CASE(an_invalid_traceparent_is_ignored) {
  BOOST_TEST(!parse_traceparent("").has_value());
  BOOST_TEST(!parse_traceparent(valid + "-extra").has_value()); // version 00 is exactly 55 characters
  BOOST_TEST(!parse_traceparent("ff-" + trace + "-00f067aa0ba902b7-01").has_value());
  BOOST_TEST(!parse_traceparent("00-" + std::string(32, '0') + "-00f067aa0ba902b7-01").has_value());
  BOOST_TEST(!parse_traceparent("00-" + trace + "-0000000000000000-01").has_value());
  BOOST_TEST(!parse_traceparent("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01").has_value());
  BOOST_TEST(!parse_traceparent("00-" + trace + "-00f067aa0ba902b7_01").has_value());
  BOOST_TEST(!parse_traceparent("00-" + trace.substr(1) + "z-00f067aa0ba902b7-01").has_value());
}
