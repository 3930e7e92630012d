#include "schema/credit_entry_view.hpp"

#include <boost/test/unit_test.hpp>

#include <boost/json.hpp>

BOOST_AUTO_TEST_SUITE(schema_credit_entry_view)

namespace {

using namespace svc::schema;

credit_entry_record grant() {
  credit_entry_record e;
  e.id = "cre_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  e.team_id = "team_01KAK3R5N2W9X7Q4V6B8C0D1EG";
  e.kind = credit_entry_kind::grant;
  e.amount = -25;
  e.available_after = 75;
  e.held_after = 5;
  e.created_at = svc::core::from_unix_ms(1763720130123);
  return e;
}

} // namespace

BOOST_AUTO_TEST_CASE(shows_the_signed_amount_and_the_balance_after) {
  auto v = credit_entry_view(grant()).as_object();
  BOOST_TEST(v.at("object").as_string() == "credit_entry");
  BOOST_TEST(v.at("id").as_string() == "cre_01KAK3R5N2W9X7Q4V6B8C0D1EF");
  BOOST_TEST(v.at("team_id").as_string() == "team_01KAK3R5N2W9X7Q4V6B8C0D1EG");
  BOOST_TEST(v.at("kind").as_string() == "grant");
  BOOST_TEST(v.at("amount").as_int64() == -25);
  BOOST_TEST(v.at("balance").at("available").as_int64() == 75);
  BOOST_TEST(v.at("balance").at("held").as_int64() == 5);
  BOOST_TEST(v.at("created_at").as_string() == "2025-11-21T10:15:30.123Z");
}

BOOST_AUTO_TEST_CASE(absent_job_and_reason_are_null_present_ones_are_text) {
  auto e = grant();
  auto without = credit_entry_view(e).as_object();
  BOOST_TEST(without.at("job_id").is_null());
  BOOST_TEST(without.at("reason").is_null());
  e.kind = credit_entry_kind::refund;
  e.job_id = "img_01KAK3R5N2W9X7Q4V6B8C0D1EH";
  e.reason = "blank render";
  auto with = credit_entry_view(e).as_object();
  BOOST_TEST(with.at("kind").as_string() == "refund");
  BOOST_TEST(with.at("job_id").as_string() == "img_01KAK3R5N2W9X7Q4V6B8C0D1EH");
  BOOST_TEST(with.at("reason").as_string() == "blank render");
}

BOOST_AUTO_TEST_SUITE_END()
