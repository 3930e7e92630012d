#include "schema/file_view.hpp"

#include <boost/test/unit_test.hpp>

#include <boost/json.hpp>

BOOST_AUTO_TEST_SUITE(schema_file_view)

namespace {

using namespace svc::schema;
using svc::core::from_unix_ms;

} // namespace

BOOST_AUTO_TEST_CASE(shows_the_record_of_decisions_md) {
  file_record f;
  f.id = "file_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  f.team_id = "team_1";
  f.purpose = file_purpose::init_image;
  f.bytes = 469;
  f.content_type = "image/png";
  f.width = 64;
  f.height = 48;
  f.sha256 = std::string(64, 'f');
  f.created_at = from_unix_ms(1763720130123);
  f.expires_at = from_unix_ms(1763806530123);
  auto v = file_view(f).as_object();
  BOOST_TEST(v.size() == 10u);
  BOOST_TEST(v.at("id").as_string() == f.id);
  BOOST_TEST(v.at("object").as_string() == "file");
  BOOST_TEST(v.at("purpose").as_string() == "init_image");
  BOOST_TEST(v.at("bytes").to_number<int64_t>() == 469);
  BOOST_TEST(v.at("content_type").as_string() == "image/png");
  BOOST_TEST(v.at("width").as_int64() == 64);
  BOOST_TEST(v.at("height").as_int64() == 48);
  BOOST_TEST(v.at("sha256").as_string() == f.sha256);
  BOOST_TEST(v.at("created_at").as_string() == "2025-11-21T10:15:30.123Z");
  BOOST_TEST(v.at("expires_at").as_string() == "2025-11-22T10:15:30.123Z");
  BOOST_TEST(!v.contains("team_id"));
}

BOOST_AUTO_TEST_SUITE_END()
