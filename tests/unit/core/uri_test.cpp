#include "core/uri.hpp"

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(core_uri)

using svc::core::parse_uri;

BOOST_AUTO_TEST_CASE(absolute_urls_parse) {
  auto u = parse_uri("http://user:pw@gpu:7860/sd/?a=1#f");
  BOOST_REQUIRE(u.has_value());
  BOOST_TEST(u->encoded_host() == "gpu");
  BOOST_TEST(u->port() == "7860");
  BOOST_TEST(u->encoded_path() == "/sd/");
  BOOST_TEST(parse_uri("http://gpu").has_value());
  BOOST_TEST(parse_uri("mailto:ops@svc.test").has_value()); // no authority: a rootless path is fine
}

// Boost.URL 1.81 takes each of these, reading a path without its leading '/'.
BOOST_AUTO_TEST_CASE(a_path_right_after_the_authority_must_start_with_a_slash) {
  BOOST_TEST(!parse_uri("http://gpu:78a0").has_value());
  BOOST_TEST(!parse_uri("http://[::1]x").has_value());
  BOOST_TEST(!parse_uri("http://a:b@c@gpu:7860").has_value());
}

BOOST_AUTO_TEST_CASE(non_urls_are_refused) {
  BOOST_TEST(!parse_uri("").has_value());
  BOOST_TEST(!parse_uri("gpu:7860 x").has_value());
  BOOST_TEST(!parse_uri("http://a b").has_value());
  BOOST_TEST(!parse_uri("//gpu").has_value());
}

BOOST_AUTO_TEST_CASE(ports_are_1_to_65535_in_at_most_five_digits) {
  BOOST_TEST(*svc::core::parse_port("7860") == 7860);
  BOOST_TEST(*svc::core::parse_port("00443") == 443);
  BOOST_TEST(*svc::core::parse_port("65535") == 65535);
  for (auto bad : {"", "0", "65536", "000443", "99999999999999999999", "8x", "-1", " 80"})
    BOOST_TEST(!svc::core::parse_port(bad).has_value(), bad);
}

BOOST_AUTO_TEST_CASE(host_text_gives_addresses_printed_and_names_as_written) {
  using svc::core::host_text;
  BOOST_TEST(host_text(parse_uri("http://10.0.0.7:80/")->authority()).value() == "10.0.0.7");
  BOOST_TEST(host_text(parse_uri("http://[::1]:80/")->authority()).value() == "::1");
  BOOST_TEST(host_text(parse_uri("http://Gpu.Local/")->authority()).value() == "Gpu.Local");
  BOOST_TEST(host_text(parse_uri("http://gp%75/")->authority()).value() == "gp%75");
  BOOST_TEST(!host_text(parse_uri("http://[v1.x]/")->authority()).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
