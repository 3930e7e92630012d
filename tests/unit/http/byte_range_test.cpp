#include "http/byte_range.hpp"

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(http_byte_range)

using svc::http::parse_range;
using kind = svc::http::range_request::kind;

namespace {

bool partial(std::optional<std::string_view> header, uint64_t size, uint64_t first, uint64_t last) {
  auto r = parse_range(header, size);
  return r.what == kind::partial && r.range.first == first && r.range.last == last;
}

kind what(std::optional<std::string_view> header, uint64_t size) { return parse_range(header, size).what; }

} // namespace

BOOST_AUTO_TEST_CASE(the_three_single_range_forms) {
  BOOST_TEST(partial("bytes=0-99", 1000, 0, 99));
  BOOST_TEST(partial("bytes=100-", 1000, 100, 999));
  BOOST_TEST(partial("bytes=-50", 1000, 950, 999));
  BOOST_TEST(partial("bytes=999-999", 1000, 999, 999));
  BOOST_TEST(parse_range("bytes=0-99", 1000).range.length() == 100u);
}

BOOST_AUTO_TEST_CASE(ends_past_the_file_are_clamped) {
  BOOST_TEST(partial("bytes=10-99999999", 1000, 10, 999));
  BOOST_TEST(partial("bytes=-5000", 1000, 0, 999), "a suffix longer than the file is the whole file");
}

BOOST_AUTO_TEST_CASE(whitespace_and_unit_case_are_tolerated) {
  BOOST_TEST(partial(" Bytes = 1 - 2 ", 10, 1, 2));
}

BOOST_AUTO_TEST_CASE(starts_at_or_past_the_end_are_unsatisfiable) {
  BOOST_TEST((what("bytes=1000-", 1000) == kind::unsatisfiable));
  BOOST_TEST((what("bytes=5000-6000", 1000) == kind::unsatisfiable));
  BOOST_TEST((what("bytes=-0", 1000) == kind::unsatisfiable));
  BOOST_TEST((what("bytes=0-", 0) == kind::unsatisfiable), "nothing of an empty file can be served");
}

BOOST_AUTO_TEST_CASE(anything_else_is_served_whole) {
  for (std::string_view h : {"", "bytes", "bytes=", "bytes=-", "items=0-1", "bytes=a-b", "bytes=5-1", "bytes=0-1,3-4",
                             "bytes=+1-2", "bytes=1--2", "bytes=99999999999999999999-", "bytes=0x1-2"})
    BOOST_TEST((what(h, 1000) == kind::whole), h);
  BOOST_TEST((what(std::nullopt, 1000) == kind::whole));
}

BOOST_AUTO_TEST_CASE(content_range_names_the_bytes_and_the_size) {
  BOOST_TEST(svc::http::content_range({100, 199}, 1000) == "bytes 100-199/1000");
}

BOOST_AUTO_TEST_SUITE_END()
