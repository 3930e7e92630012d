#include "schema/file_record.hpp"

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(schema_file_record)

namespace {

using namespace svc::schema;
using svc::core::from_unix_ms;

} // namespace

BOOST_AUTO_TEST_CASE(purposes_have_wire_names) {
  BOOST_TEST(to_string(file_purpose::init_image) == "init_image");
  BOOST_TEST(to_string(file_purpose::mask) == "mask");
  BOOST_TEST((file_purpose_from_name("init_image") == file_purpose::init_image));
  BOOST_TEST((file_purpose_from_name("mask") == file_purpose::mask));
  BOOST_TEST(!file_purpose_from_name("Mask"));
  BOOST_TEST(!file_purpose_from_name(""));
  BOOST_TEST(!file_purpose_from_name("init_image "));
}

BOOST_AUTO_TEST_CASE(bytes_live_under_files) {
  BOOST_TEST(file_blob_key("file_01KAK3R5N2W9X7Q4V6B8C0D1EF") == "files/file_01KAK3R5N2W9X7Q4V6B8C0D1EF");
}

BOOST_AUTO_TEST_CASE(a_file_is_expired_from_its_deadline_on) {
  file_record f;
  f.expires_at = from_unix_ms(1000);
  BOOST_TEST(!is_expired(f, from_unix_ms(999)));
  BOOST_TEST(is_expired(f, from_unix_ms(1000)));
  BOOST_TEST(is_expired(f, from_unix_ms(5000)));
}

BOOST_AUTO_TEST_CASE(the_body_limit_is_twenty_mebibytes) { BOOST_TEST(max_file_body_bytes == 20u * 1024u * 1024u); }

BOOST_AUTO_TEST_SUITE_END()
