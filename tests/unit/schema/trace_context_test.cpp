#include "schema/trace_context.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

BOOST_AUTO_TEST_SUITE(schema_trace_context)

namespace {

using namespace svc::schema;

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
  BOOST_TEST(t->flags == "01");
}

BOOST_AUTO_TEST_CASE(a_call_made_for_the_request_is_a_child_span_of_its_trace) {
  auto parent = parse_traceparent("00-" + trace + "-00f067aa0ba902b7-03");
  BOOST_REQUIRE(parent.has_value());
  BOOST_TEST(child_traceparent(*parent, "b7ad6b7169203331") == "00-" + trace + "-b7ad6b7169203331-03");
}

BOOST_AUTO_TEST_CASE(a_child_of_a_later_version_is_sent_as_version_00_with_the_same_flags) {
  auto parent = parse_traceparent("01-" + trace + "-00f067aa0ba902b7-00-what-comes");
  BOOST_REQUIRE(parent.has_value());
  auto child = child_traceparent(*parent, "b7ad6b7169203331");
  BOOST_TEST(child == "00-" + trace + "-b7ad6b7169203331-00");
  BOOST_TEST(parse_traceparent(child).has_value(), "the child is a valid traceparent itself");
}

BOOST_AUTO_TEST_CASE(a_new_span_id_is_16_lowercase_hex_digits_not_all_zero_and_fresh) {
  auto a = new_span_id();
  auto b = new_span_id();
  BOOST_TEST(a.size() == 16u);
  BOOST_TEST(a.find_first_not_of("0123456789abcdef") == std::string::npos);
  BOOST_TEST(a.find_first_not_of('0') != std::string::npos);
  BOOST_TEST(a != b);
}

BOOST_AUTO_TEST_CASE(a_stored_trace_is_checked_like_a_received_one) {
  BOOST_TEST(valid_trace(trace_parent{trace, "01"}));
  BOOST_TEST(!valid_trace(trace_parent{std::string(32, '0'), "01"}));
  BOOST_TEST(!valid_trace(trace_parent{trace.substr(1), "01"}));
  BOOST_TEST(!valid_trace(trace_parent{trace, "1"}));
  BOOST_TEST(!valid_trace(trace_parent{trace, "0G"}));
  BOOST_TEST(!valid_trace(trace_parent{trace + "\r\nX: y", "01"}));
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

BOOST_AUTO_TEST_SUITE_END()
