#include "bench/load/target.hpp"

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(bench_target)

namespace {

using svc::bench::parse_target_url;

} // namespace

BOOST_AUTO_TEST_CASE(loopback_urls_are_taken) {
  std::string error;
  for (const char* url : {"http://127.0.0.1:8080", "http://127.0.0.1:8080/", "http://localhost:1", "http://[::1]:443",
                          "http://127.1.2.3:65535"}) {
    auto t = parse_target_url(url, false, error);
    BOOST_TEST_REQUIRE(t.has_value(), url << ": " << error);
    BOOST_TEST(t->endpoint.address().is_loopback());
  }
  auto t = parse_target_url("http://127.0.0.1:8080/", false, error);
  BOOST_TEST(t->host_header == "127.0.0.1:8080");
  BOOST_TEST(t->endpoint.port() == 8080);
}

BOOST_AUTO_TEST_CASE(another_host_is_refused_unless_remote_is_allowed) {
  // 192.0.2.0/24 and 2001:db8::/32 are documentation ranges: nothing is sent here, the URL is only parsed.
  for (const char* url : {"http://192.0.2.10:8080", "http://[2001:db8::1]:80", "http://0.0.0.0:8080"}) {
    std::string error;
    BOOST_TEST(!parse_target_url(url, false, error).has_value(), url);
    BOOST_TEST(error.find("--allow-remote") != std::string::npos, error);
  }
  std::string error;
  auto t = parse_target_url("http://192.0.2.10:8080", true, error);
  BOOST_TEST_REQUIRE(t.has_value(), error);
  BOOST_TEST(t->endpoint.address().to_string() == "192.0.2.10");
  BOOST_TEST(t->host_header == "192.0.2.10:8080");
}

BOOST_AUTO_TEST_CASE(malformed_urls_are_refused_either_way) {
  for (bool remote : {false, true})
    for (const char* url : {"https://127.0.0.1:8080", "127.0.0.1:8080", "http://127.0.0.1", "http://127.0.0.1:0",
                            "http://127.0.0.1:70000", "http://127.0.0.1:80/v1", "http://127.0.0.1:8x"}) {
      std::string error;
      BOOST_TEST(!parse_target_url(url, remote, error).has_value(), url);
      BOOST_TEST(!error.empty());
    }
}

BOOST_AUTO_TEST_SUITE_END()
