#include "core/byte_size.hpp"

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(core_byte_size)

using svc::core::format_byte_size;
using svc::core::human_bytes;
using svc::core::parse_byte_size;

BOOST_AUTO_TEST_CASE(sizes_parse_as_digits_or_with_a_binary_unit) {
  BOOST_TEST((parse_byte_size("4096") == std::optional<uint64_t>{4096}));
  BOOST_TEST((parse_byte_size("512KiB") == std::optional<uint64_t>{512 * 1024}));
  BOOST_TEST((parse_byte_size("4MiB") == std::optional<uint64_t>{4 << 20}));
  BOOST_TEST((parse_byte_size("64GiB") == std::optional<uint64_t>{uint64_t{64} << 30}));
  BOOST_TEST((parse_byte_size("2TiB") == std::optional<uint64_t>{uint64_t{2} << 40}));
  for (auto bad : {"", "MiB", "4 MiB", "4MB", "4mib", "-4MiB", "4.5GiB", "99999999999999999999", "16777216TiB"})
    BOOST_TEST(!parse_byte_size(bad), bad);
}

BOOST_AUTO_TEST_CASE(sizes_format_exactly_in_the_largest_unit) {
  BOOST_TEST(format_byte_size(uint64_t{64} << 30) == "64GiB");
  BOOST_TEST(format_byte_size(uint64_t{1536} << 20) == "1536MiB");
  BOOST_TEST(format_byte_size(1000) == "1000");
  BOOST_TEST(format_byte_size(0) == "0");
  for (uint64_t n : {uint64_t{4096}, uint64_t{3} << 20, uint64_t{5} << 40, uint64_t{12345}})
    BOOST_TEST((parse_byte_size(format_byte_size(n)) == std::optional<uint64_t>{n}));
}

BOOST_AUTO_TEST_CASE(sizes_for_people_are_rounded) {
  BOOST_TEST(human_bytes(812 * 1024) == "812 KiB");
  BOOST_TEST(human_bytes(3774873) == "3.6 MiB");
  BOOST_TEST(human_bytes(uint64_t{64} << 30) == "64.0 GiB");
}

BOOST_AUTO_TEST_SUITE_END()
