#include "schema/stored_json.hpp"
#include "schema/queued_mail.hpp"

#include <boost/test/unit_test.hpp>

#include <boost/json.hpp>

#include "tests/support/stored_text.hpp"

BOOST_AUTO_TEST_SUITE(schema_stored_json_mail)

namespace {

namespace json = boost::json;
using namespace svc::schema;
using svc::core::from_unix_ms;
using svc::core::to_unix_ms;

queued_mail sample() {
  queued_mail m;
  m.id = "mail_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  m.message = {"Svc <noreply@svc.test>", "owner@acme.test", "Svc webhook endpoint we_1 was disabled",
               "Hello \xc3\xa9\n\"quoted\"\n"};
  m.attempts = 2;
  m.due_at = from_unix_ms(1763720135123);
  m.created_at = from_unix_ms(1763720130123);
  return m;
}

} // namespace

BOOST_AUTO_TEST_CASE(a_queued_mail_round_trips) {
  queued_mail r;
  BOOST_REQUIRE(decode_stored(svc::test::through_text(encode_stored(sample())), r));
  auto m = sample();
  BOOST_TEST(r.id == m.id);
  BOOST_TEST(r.message.from == m.message.from);
  BOOST_TEST(r.message.to == m.message.to);
  BOOST_TEST(r.message.subject == m.message.subject);
  BOOST_TEST(r.message.body == m.message.body);
  BOOST_TEST(r.attempts == 2);
  BOOST_TEST(to_unix_ms(r.due_at) == 1763720135123);
  BOOST_TEST(to_unix_ms(r.created_at) == 1763720130123);
}

BOOST_AUTO_TEST_CASE(damaged_rows_do_not_decode) {
  queued_mail r;
  BOOST_TEST(!decode_stored(json::value("a string"), r));
  BOOST_TEST(!decode_stored(svc::test::stored_with(sample(), "attempts", -1), r));
  BOOST_TEST(!decode_stored(svc::test::stored_with(sample(), "attempts", "2"), r));
  BOOST_TEST(!decode_stored(svc::test::stored_with(sample(), "due_at", nullptr), r));
  BOOST_TEST(!decode_stored(svc::test::stored_with(sample(), "to", 7), r));
  auto missing = encode_stored(sample());
  missing.as_object().erase("body");
  BOOST_TEST(!decode_stored(missing, r));
}

BOOST_AUTO_TEST_SUITE_END()
