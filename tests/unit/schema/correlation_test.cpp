#include "schema/correlation.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

#include <boost/json.hpp>

BOOST_AUTO_TEST_SUITE(schema_correlation)

namespace {

namespace json = boost::json;
using namespace svc::schema;

const std::string trace = "4bf92f3577b34da6a3ce929d0e0e4736";

correlation traced() { return {"client-abc", trace_parent{trace, "01"}}; }

bool decodes(const json::value& v, correlation& c) { return svc::schema::decode(&v, c); }

} // namespace

BOOST_AUTO_TEST_CASE(the_clients_id_wins_over_svcs_own) {
  BOOST_TEST(correlation_of("client-abc", "req_01J0000000000000000000000", std::nullopt).request_id == "client-abc");
  BOOST_TEST(correlation_of("", "req_01J0000000000000000000000", std::nullopt).request_id
             == "req_01J0000000000000000000000");
}

BOOST_AUTO_TEST_CASE(an_outbound_call_carries_the_id_and_a_child_span_of_the_trace) {
  auto h = outbound_headers(traced());
  BOOST_REQUIRE(h.size() == 2u);
  BOOST_TEST(h[0].first == "X-Request-Id");
  BOOST_TEST(h[0].second == "client-abc");
  BOOST_TEST(h[1].first == "traceparent");
  auto& tp = h[1].second;
  BOOST_REQUIRE(tp.size() == 55u);
  BOOST_TEST(tp.substr(0, 36) == "00-" + trace + "-");
  BOOST_TEST(tp.substr(52) == "-01");
  BOOST_TEST(svc::schema::parse_traceparent(tp).has_value());
  BOOST_TEST(outbound_headers(traced())[1].second != tp, "each call is a span of its own");
}

BOOST_AUTO_TEST_CASE(without_a_trace_only_the_id_goes_out_and_none_sends_nothing) {
  auto h = outbound_headers({"req_01J0000000000000000000000", std::nullopt});
  BOOST_REQUIRE(h.size() == 1u);
  BOOST_TEST(h[0].first == "X-Request-Id");
  BOOST_TEST(outbound_headers({}).empty());
}

BOOST_AUTO_TEST_CASE(the_stored_form_round_trips) {
  correlation back;
  BOOST_REQUIRE(decodes(svc::schema::encode(traced()), back));
  BOOST_TEST(back.request_id == "client-abc");
  BOOST_REQUIRE(back.trace.has_value());
  BOOST_TEST(back.trace->trace_id == trace);
  BOOST_TEST(back.trace->flags == "01");
  BOOST_REQUIRE(decodes(svc::schema::encode(correlation{"req_01J0000000000000000000000", std::nullopt}), back));
  BOOST_TEST(back.request_id == "req_01J0000000000000000000000");
  BOOST_TEST(!back.trace.has_value());
}

BOOST_AUTO_TEST_CASE(none_is_stored_as_null_and_a_missing_value_is_none) {
  BOOST_TEST(svc::schema::encode(correlation{}).is_null());
  correlation back = traced();
  BOOST_TEST(svc::schema::decode(nullptr, back));
  BOOST_TEST(back.request_id.empty());
  BOOST_TEST(!back.trace.has_value());
  back = traced();
  BOOST_TEST(decodes(nullptr, back));
  BOOST_TEST(back.request_id.empty());
}

BOOST_AUTO_TEST_CASE(a_damaged_stored_value_is_refused_since_it_would_be_sent_on) {
  correlation c;
  BOOST_TEST(!decodes(json::value{"client-abc"}, c));
  BOOST_TEST(!decodes(json::object{}, c));
  BOOST_TEST(!decodes(json::object{{"request_id", 7}}, c));
  BOOST_TEST(!decodes(json::object{{"request_id", "a\r\nSet-Cookie: x"}}, c));
  BOOST_TEST(!decodes(json::object{{"request_id", "abc"}, {"trace_id", trace}}, c), "flags missing");
  BOOST_TEST(!decodes(json::object{{"request_id", "abc"}, {"trace_id", std::string(32, '0')}, {"trace_flags", "01"}},
                      c));
  BOOST_TEST(!decodes(json::object{{"request_id", "abc"}, {"trace_id", trace}, {"trace_flags", "1x"}}, c));
  BOOST_TEST(decodes(json::object{{"request_id", "abc"}, {"trace_id", trace}, {"trace_flags", "00"}}, c));
}

BOOST_AUTO_TEST_SUITE_END()
