#include "schema/stored_json.hpp"
#include "schema/webhook_records.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

#include <boost/json.hpp>

#include "tests/support/stored_text.hpp"

BOOST_AUTO_TEST_SUITE(schema_stored_json_webhook)

namespace {

namespace json = boost::json;
using namespace svc::schema;
using svc::core::from_unix_ms;
using svc::core::to_unix_ms;

event_record traced_event() {
  event_record e;
  e.id = "evt_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  e.team_id = "team_01KAK3R5N2W9X7Q4V6B8C0D1EG";
  e.type = "image.completed";
  e.api_version = "2026-01-15";
  e.created_at = from_unix_ms(1763720130123);
  e.body = R"({"id":"evt_01KAK3R5N2W9X7Q4V6B8C0D1EF"})";
  e.correlation = {"client-abc", trace_parent{"4bf92f3577b34da6a3ce929d0e0e4736", "01"}};
  return e;
}

} // namespace

BOOST_AUTO_TEST_CASE(an_event_round_trips_with_the_correlation_its_deliveries_send) {
  event_record r;
  BOOST_REQUIRE(decode_stored(svc::test::through_text(encode_stored(traced_event())), r));
  BOOST_TEST(r.id == traced_event().id);
  BOOST_TEST(r.type == "image.completed");
  BOOST_TEST(to_unix_ms(r.created_at) == 1763720130123);
  BOOST_TEST(r.body == traced_event().body);
  BOOST_TEST(r.correlation.request_id == "client-abc");
  BOOST_REQUIRE(r.correlation.trace);
  BOOST_TEST(r.correlation.trace->trace_id == "4bf92f3577b34da6a3ce929d0e0e4736");
  BOOST_TEST(r.correlation.trace->flags == "01");
}

// Events stored before they carried a correlation, and those no request caused, have none.
BOOST_AUTO_TEST_CASE(an_event_without_a_correlation_still_decodes) {
  auto stored = encode_stored(traced_event());
  stored.as_object().erase("correlation");
  event_record r;
  BOOST_REQUIRE(decode_stored(svc::test::through_text(stored), r));
  BOOST_TEST(r.correlation.request_id.empty());
  BOOST_TEST(!r.correlation.trace);
  auto bare = traced_event();
  bare.correlation = {};
  BOOST_REQUIRE(decode_stored(svc::test::through_text(encode_stored(bare)), r));
  BOOST_TEST(r.correlation.request_id.empty());
}

BOOST_AUTO_TEST_CASE(an_event_with_a_damaged_correlation_does_not_decode) {
  auto stored = encode_stored(traced_event());
  stored.as_object()["correlation"] = json::object{{"request_id", "client abc"}};
  event_record r;
  BOOST_TEST(!decode_stored(stored, r));
  stored.as_object()["correlation"] = json::object{{"request_id", "abc"}, {"trace_id", "x"}, {"trace_flags", "01"}};
  BOOST_TEST(!decode_stored(stored, r));
}

BOOST_AUTO_TEST_SUITE_END()
