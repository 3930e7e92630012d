#include "schema/stored_json.hpp"
#include "schema/credit_entry.hpp"

#include <boost/test/unit_test.hpp>

#include <limits>
#include <string>

#include <boost/json.hpp>

#include "tests/support/stored_text.hpp"

BOOST_AUTO_TEST_SUITE(schema_stored_json_credit_entry)

namespace {

namespace json = boost::json;
using namespace svc::schema;
using svc::core::from_unix_ms;

credit_entry_record sample() {
  credit_entry_record e;
  e.id = "cre_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  e.team_id = "team_01KAK3R5N2W9X7Q4V6B8C0D1EG";
  e.kind = credit_entry_kind::refund;
  e.amount = 40;
  e.available_after = 140;
  e.held_after = 10;
  e.job_id = "img_01KAK3R5N2W9X7Q4V6B8C0D1EH";
  e.reason = "render was blank";
  e.created_at = from_unix_ms(1763720130123);
  return e;
}

bool decodes(const json::value& v) {
  credit_entry_record r;
  return decode_stored(v, r);
}

} // namespace

BOOST_AUTO_TEST_CASE(round_trips_through_stored_text) {
  auto e = sample();
  credit_entry_record back;
  BOOST_TEST_REQUIRE(decode_stored(svc::test::through_text(encode_stored(e)), back));
  BOOST_TEST(back.id == e.id);
  BOOST_TEST(back.team_id == e.team_id);
  BOOST_TEST((back.kind == credit_entry_kind::refund));
  BOOST_TEST(back.amount == 40);
  BOOST_TEST(back.available_after == 140);
  BOOST_TEST(back.held_after == 10);
  BOOST_TEST(back.job_id == e.job_id);
  BOOST_TEST(back.reason == e.reason);
  BOOST_TEST((back.created_at == e.created_at));
}

BOOST_AUTO_TEST_CASE(every_kind_has_a_name_that_reads_back) {
  for (auto k : {credit_entry_kind::grant, credit_entry_kind::hold, credit_entry_kind::charge,
                 credit_entry_kind::release, credit_entry_kind::refund})
    BOOST_TEST((credit_entry_kind_from_name(to_string(k)) == k));
  BOOST_TEST(!credit_entry_kind_from_name("bonus"));
}

BOOST_AUTO_TEST_CASE(extreme_amounts_within_bounds_decode) {
  BOOST_TEST(decodes(svc::test::stored_with(sample(), "amount", -max_credits)));
  BOOST_TEST(decodes(svc::test::stored_with(sample(), "amount", max_credits)));
  BOOST_TEST(decodes(svc::test::stored_with(sample(), "available_after", max_credits)));
  BOOST_TEST(decodes(svc::test::stored_with(sample(), "held_after", 0)));
}

BOOST_AUTO_TEST_CASE(damaged_entries_are_rejected) {
  BOOST_TEST(!decodes(json::parse("[]")));
  BOOST_TEST(!decodes(svc::test::stored_with(sample(), "kind", "bonus")));
  BOOST_TEST(!decodes(svc::test::stored_with(sample(), "amount", max_credits + 1)));
  BOOST_TEST(!decodes(svc::test::stored_with(sample(), "amount", -max_credits - 1)));
  BOOST_TEST(!decodes(svc::test::stored_with(sample(), "amount", 1.5)));
  BOOST_TEST(!decodes(svc::test::stored_with(sample(), "amount", 1e300)));
  BOOST_TEST(!decodes(svc::test::stored_with(sample(), "available_after", -1)));
  BOOST_TEST(!decodes(svc::test::stored_with(sample(), "available_after", max_credits + 1)));
  BOOST_TEST(!decodes(svc::test::stored_with(sample(), "held_after", -1)));
  BOOST_TEST(!decodes(svc::test::stored_with(sample(), "held_after", std::numeric_limits<int64_t>::max())));
  BOOST_TEST(!decodes(svc::test::stored_with(sample(), "job_id", 7)));
  BOOST_TEST(!decodes(svc::test::stored_with(sample(), "reason", nullptr)));
  BOOST_TEST(!decodes(svc::test::stored_with(sample(), "created_at", "yesterday")));
  auto missing = encode_stored(sample());
  missing.as_object().erase("held_after");
  BOOST_TEST(!decodes(missing));
}

BOOST_AUTO_TEST_SUITE_END()
