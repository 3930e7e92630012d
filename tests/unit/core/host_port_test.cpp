#include "core/host_port.hpp"

#include <boost/test/unit_test.hpp>

#include <stdexcept>

BOOST_AUTO_TEST_SUITE(core_host_port)

using svc::core::parse_endpoint;

BOOST_AUTO_TEST_CASE(addresses_and_ports) {
  auto v4 = parse_endpoint("127.0.0.1:8080");
  BOOST_TEST(v4.address().to_string() == "127.0.0.1");
  BOOST_TEST(v4.port() == 8080);
  auto v6 = parse_endpoint("[::1]:0");
  BOOST_TEST(v6.address().is_v6());
  BOOST_TEST(v6.address().to_string() == "::1");
  BOOST_TEST(v6.port() == 0);
  BOOST_TEST(parse_endpoint("0.0.0.0:65535").port() == 65535);
}

// The one name taken: no resolver runs where a listen address is read.
BOOST_AUTO_TEST_CASE(localhost_is_the_ipv4_loopback) {
  BOOST_TEST(parse_endpoint("localhost:80").address().to_string() == "127.0.0.1");
  BOOST_CHECK_THROW(parse_endpoint("example.com:80"), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(malformed_text_throws) {
  for (const char* text : {"127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:123456", "127.0.0.1:-1",
                           "127.0.0.1:8o", "[::1]", ":80", "300.0.0.1:80", ""})
    BOOST_CHECK_THROW(parse_endpoint(text), std::runtime_error);
}

BOOST_AUTO_TEST_SUITE_END()
