#include "core/cidr.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

BOOST_AUTO_TEST_SUITE(core_cidr)

using svc::core::parse_cidr;
using svc::core::parse_cidr_list;
using svc::core::parse_ip;

namespace {

bool in(const std::string& range, const std::string& address) {
  auto r = parse_cidr(range);
  auto a = parse_ip(address);
  BOOST_REQUIRE_MESSAGE(r && a, range << " or " << address << " does not parse");
  return r->contains(*a);
}

} // namespace

BOOST_AUTO_TEST_CASE(ipv4_ranges_match_by_prefix) {
  BOOST_TEST(in("10.0.0.0/8", "10.255.1.2"));
  BOOST_TEST(!in("10.0.0.0/8", "11.0.0.1"));
  BOOST_TEST(in("192.168.4.0/22", "192.168.7.255"));
  BOOST_TEST(!in("192.168.4.0/22", "192.168.8.0"));
  BOOST_TEST(in("203.0.113.7", "203.0.113.7"));
  BOOST_TEST(!in("203.0.113.7", "203.0.113.8"));
  BOOST_TEST(in("0.0.0.0/0", "8.8.8.8"));
  BOOST_TEST(!in("0.0.0.0/0", "2001:db8::1"), "an IPv4 range holds no IPv6 address");
  BOOST_TEST(in("127.0.0.0/8", "::ffff:127.0.0.1"), "IPv4-mapped peers of a dual-stack socket");
}

BOOST_AUTO_TEST_CASE(ipv6_ranges_match_by_prefix) {
  BOOST_TEST(in("2001:db8::/32", "2001:db8:ffff::1"));
  BOOST_TEST(!in("2001:db8::/32", "2001:db9::1"));
  BOOST_TEST(in("fc00::/7", "fd12::1"));
  BOOST_TEST(in("2001:db8::/63", "2001:db8:0:1::1"));
  BOOST_TEST(!in("2001:db8::/63", "2001:db8:0:2::1"));
  BOOST_TEST(in("::1", "::1"));
  BOOST_TEST(!in("::1", "::2"));
  BOOST_TEST(in("::/0", "::ffff:10.0.0.1"));
}

BOOST_AUTO_TEST_CASE(malformed_ranges_are_refused) {
  for (auto bad : {"", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/8x", "10.0.0.0/-1", "10.1.0.0/8", "2001:db8::1/32",
                   "::/129", "fd00::/7", "[::1]", "::ffff:0:0/80", "localhost", "10.0.0", "fe80::1%eth0", "1.2.3.4/ 8"})
    BOOST_TEST(!parse_cidr(bad), "accepted '" << bad << "'");
}

BOOST_AUTO_TEST_CASE(lists_are_comma_separated) {
  auto list = parse_cidr_list("10.0.0.0/8, 192.168.0.1 ,fd00::/8");
  BOOST_REQUIRE(list);
  BOOST_TEST(list->size() == 3u);
  BOOST_TEST(parse_cidr_list("")->empty());
  BOOST_TEST(!parse_cidr_list("10.0.0.0/8,"));
  BOOST_TEST(!parse_cidr_list("10.0.0.0/8,bogus"));
}

BOOST_AUTO_TEST_SUITE_END()
