#include "schema/stored_json.hpp"
#include "schema/file_record.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

#include <boost/json.hpp>

#include "tests/support/stored_text.hpp"

BOOST_AUTO_TEST_SUITE(schema_stored_json_file)

namespace {

namespace json = boost::json;
using namespace svc::schema;
using svc::core::from_unix_ms;
using svc::core::to_unix_ms;

file_record sample() {
  file_record f;
  f.id = "file_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  f.team_id = "team_01KAK3R5N2W9X7Q4V6B8C0D1EG";
  f.purpose = file_purpose::mask;
  f.bytes = 20 * 1024 * 1024;
  f.content_type = "image/webp";
  f.width = 16383;
  f.height = 2;
  f.sha256 = std::string(64, 'c');
  f.created_at = from_unix_ms(1763720130123);
  f.expires_at = from_unix_ms(1763806530123);
  return f;
}

} // namespace

BOOST_AUTO_TEST_CASE(round_trips_through_stored_text) {
  auto f = sample();
  file_record back;
  BOOST_TEST_REQUIRE(decode_stored(svc::test::through_text(encode_stored(f)), back));
  BOOST_TEST(back.id == f.id);
  BOOST_TEST(back.team_id == f.team_id);
  BOOST_TEST((back.purpose == file_purpose::mask));
  BOOST_TEST(back.bytes == f.bytes);
  BOOST_TEST(back.content_type == f.content_type);
  BOOST_TEST(back.width == f.width);
  BOOST_TEST(back.height == f.height);
  BOOST_TEST(back.sha256 == f.sha256);
  BOOST_TEST(to_unix_ms(back.created_at) == 1763720130123);
  BOOST_TEST(to_unix_ms(back.expires_at) == 1763806530123);
}

BOOST_AUTO_TEST_CASE(stored_form_names_its_fields) {
  auto v = encode_stored(sample()).as_object();
  BOOST_TEST(v.at("purpose").as_string() == "mask");
  BOOST_TEST(v.at("created_at").as_int64() == 1763720130123);
  BOOST_TEST(v.size() == 10u);
}

BOOST_AUTO_TEST_CASE(damaged_records_are_refused) {
  auto good = encode_stored(sample()).as_object();
  file_record out;
  for (auto field : {"id", "team_id", "purpose", "bytes", "content_type", "width", "height", "sha256", "created_at",
                     "expires_at"}) {
    auto missing = good;
    missing.erase(field);
    BOOST_TEST(!decode_stored(missing, out), "without " << field);
    auto mistyped = good;
    mistyped[field] = json::array{};
    BOOST_TEST(!decode_stored(mistyped, out), "mistyped " << field);
  }
  auto bad = good;
  bad["purpose"] = "thumbnail";
  BOOST_TEST(!decode_stored(bad, out));
  bad = good;
  bad["width"] = 0;
  BOOST_TEST(!decode_stored(bad, out));
  bad = good;
  bad["bytes"] = -1;
  BOOST_TEST(!decode_stored(bad, out));
  BOOST_TEST(!decode_stored(json::value{"not an object"}, out));
}

BOOST_AUTO_TEST_SUITE_END()
