#include "schema/utf8.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <string_view>

BOOST_AUTO_TEST_SUITE(schema_utf8)

using svc::schema::utf8_length;
using svc::schema::utf8_prefix;

BOOST_AUTO_TEST_CASE(counts_code_points_not_bytes) {
  BOOST_TEST(utf8_length("").value() == 0u);
  BOOST_TEST(utf8_length("abc").value() == 3u);
  BOOST_TEST(utf8_length("\xc3\xa9").value() == 1u);             // é, 2 bytes
  BOOST_TEST(utf8_length("\xe6\x97\xa5\xe6\x9c\xac").value() == 2u); // 日本, 3 bytes each
  BOOST_TEST(utf8_length("\xf0\x9f\x98\x80!").value() == 2u);     // 😀 then !
  BOOST_TEST(utf8_length(std::string_view{"a\0b", 3}).value() == 3u);
}

BOOST_AUTO_TEST_CASE(accepts_the_edges_of_each_length) {
  BOOST_TEST(utf8_length("\x7f").value() == 1u);
  BOOST_TEST(utf8_length("\xc2\x80").value() == 1u);         // U+0080
  BOOST_TEST(utf8_length("\xdf\xbf").value() == 1u);         // U+07FF
  BOOST_TEST(utf8_length("\xe0\xa0\x80").value() == 1u);     // U+0800
  BOOST_TEST(utf8_length("\xed\x9f\xbf").value() == 1u);     // U+D7FF, below the surrogates
  BOOST_TEST(utf8_length("\xee\x80\x80").value() == 1u);     // U+E000, above them
  BOOST_TEST(utf8_length("\xef\xbf\xbf").value() == 1u);     // U+FFFF
  BOOST_TEST(utf8_length("\xf0\x90\x80\x80").value() == 1u); // U+10000
  BOOST_TEST(utf8_length("\xf4\x8f\xbf\xbf").value() == 1u); // U+10FFFF
}

BOOST_AUTO_TEST_CASE(rejects_ill_formed_sequences) {
  for (std::string_view bad : {
         "\x80",             // lone continuation
         "\xbf",             // lone continuation
         "\xc3",             // truncated 2-byte
         "a\xc3",            // truncated at the end
         "\xc3\x28",         // bad continuation
         "\xc0\xaf",         // overlong '/'
         "\xc1\xbf",         // overlong
         "\xe0\x80\xaf",     // overlong 3-byte
         "\xe0\x9f\xbf",     // overlong 3-byte (U+07FF)
         "\xed\xa0\x80",     // surrogate U+D800
         "\xed\xbf\xbf",     // surrogate U+DFFF
         "\xe6\x97",         // truncated 3-byte
         "\xf0\x80\x80\x80", // overlong 4-byte
         "\xf0\x8f\xbf\xbf", // overlong 4-byte (U+FFFF)
         "\xf4\x90\x80\x80", // above U+10FFFF
         "\xf5\x80\x80\x80", // never valid lead byte
         "\xf0\x9f\x98",     // truncated 4-byte
         "\xfe",
         "\xff",
       }) {
    BOOST_TEST(!utf8_length(bad).has_value(), "accepted bytes of length " << bad.size());
  }
}

BOOST_AUTO_TEST_CASE(prefix_never_splits_a_sequence) {
  BOOST_TEST(utf8_prefix("abcdef", 3) == "abc");
  BOOST_TEST(utf8_prefix("ab", 3) == "ab");
  BOOST_TEST(utf8_prefix("a\xc3\xa9z", 2) == "a");         // would cut é in half
  BOOST_TEST(utf8_prefix("a\xc3\xa9z", 3) == "a\xc3\xa9");
  BOOST_TEST(utf8_prefix("\xf0\x9f\x98\x80", 3) == "");
}

BOOST_AUTO_TEST_CASE(sanitized_keeps_valid_text_and_replaces_each_bad_byte) {
  using svc::schema::utf8_sanitized;
  const std::string fffd = "\xef\xbf\xbd";
  BOOST_TEST(utf8_sanitized("") == "");
  BOOST_TEST(utf8_sanitized("plain") == "plain");
  BOOST_TEST(utf8_sanitized("a\xc3\xa9\xe6\x97\xa5\xf0\x9f\x98\x80") == "a\xc3\xa9\xe6\x97\xa5\xf0\x9f\x98\x80");
  BOOST_TEST(utf8_sanitized(std::string_view{"a\0b", 3}) == std::string("a\0b", 3));
  BOOST_TEST(utf8_sanitized("a\xff" "b") == "a" + fffd + "b");
  BOOST_TEST(utf8_sanitized("\xc3") == fffd);                      // cut in half at the end
  BOOST_TEST(utf8_sanitized("\xc3\x28") == fffd + "(");            // the next byte is kept
  BOOST_TEST(utf8_sanitized("\xed\xa0\x80") == fffd + fffd + fffd); // a surrogate: three bad bytes
  BOOST_TEST(utf8_sanitized("\xc0\xaf") == fffd + fffd);           // overlong '/'
  for (std::string_view bad : {"\xfe\xff", "x\xe6\x97", "\xf4\x90\x80\x80z", "\xbf\xbf\xbf"})
    BOOST_TEST(utf8_length(utf8_sanitized(bad)).has_value(), "still invalid after sanitizing");
}

BOOST_AUTO_TEST_SUITE_END()
