#include "providers/remote/remote_url.hpp"

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(providers_remote_url)

using namespace svc::providers;

namespace {

remote_url parsed(std::string_view text) {
  std::string why;
  auto u = parse_remote_url(text, why);
  BOOST_TEST_REQUIRE(u.has_value(), text << ": " << why);
  return *u;
}

std::string refusal(std::string_view text) {
  std::string why;
  auto u = parse_remote_url(text, why);
  BOOST_TEST(!u.has_value(), text);
  return why;
}

} // namespace

BOOST_AUTO_TEST_CASE(host_and_port) {
  auto u = parsed("http://gpu:7860");
  BOOST_TEST(u.host == "gpu");
  BOOST_TEST(u.port == 7860);
  BOOST_TEST(u.base_path.empty());
  BOOST_TEST(u.authorization.empty());
  BOOST_TEST(u.host_header() == "gpu:7860");
  BOOST_TEST(u.target("/sdapi/v1/txt2img") == "/sdapi/v1/txt2img");
  BOOST_TEST(u.text() == "http://gpu:7860");
}

BOOST_AUTO_TEST_CASE(default_port_and_scheme_case) {
  auto u = parsed("HTTP://10.0.0.7/");
  BOOST_TEST(u.host == "10.0.0.7");
  BOOST_TEST(u.port == 80);
  BOOST_TEST(u.host_header() == "10.0.0.7");
  BOOST_TEST(u.base_path.empty(), "a lone slash is no base path");
}

BOOST_AUTO_TEST_CASE(a_base_path_prefixes_every_target) {
  auto u = parsed("http://proxy.lan:8080/sd/forge//");
  BOOST_TEST(u.base_path == "/sd/forge");
  BOOST_TEST(u.target("/sdapi/v1/progress?skip_current_image=true") ==
             "/sd/forge/sdapi/v1/progress?skip_current_image=true");
  BOOST_TEST(u.text() == "http://proxy.lan:8080/sd/forge");
}

BOOST_AUTO_TEST_CASE(ipv6_literals_are_bracketed_in_host) {
  auto u = parsed("http://[::1]:7860");
  BOOST_TEST(u.host == "::1");
  BOOST_TEST(u.host_header() == "[::1]:7860");
  BOOST_TEST(parsed("http://[fe80::1]").port == 80);
}

BOOST_AUTO_TEST_CASE(credentials_become_basic_auth_and_stay_out_of_text) {
  auto u = parsed("http://svc:p%40ss%3Aword@gpu:7860");
  BOOST_TEST(u.host == "gpu");
  BOOST_TEST(u.authorization == "Basic c3ZjOnBAc3M6d29yZA=="); // svc:p@ss:word
  BOOST_TEST(u.text().find("svc") == std::string::npos);
  BOOST_TEST(!refusal("http://justauser@gpu:7860").empty());
  BOOST_TEST(!refusal("http://a:%zz@gpu").empty());
}

BOOST_AUTO_TEST_CASE(malformed_urls_are_refused_with_a_reason) {
  BOOST_TEST(refusal("").find("no URL") != std::string::npos);
  BOOST_TEST(refusal("https://gpu:7860").find("https") != std::string::npos);
  BOOST_TEST(refusal("gpu:7860").find("http://") != std::string::npos);
  BOOST_TEST(refusal("ftp://gpu").find("http://") != std::string::npos);
  BOOST_TEST(refusal("http://").find("no host") != std::string::npos);
  BOOST_TEST(refusal("http://:7860").find("no host") != std::string::npos);
  for (auto port : {"http://gpu:", "http://gpu:0", "http://gpu:65536", "http://gpu:78a0", "http://gpu:123456"})
    BOOST_TEST(refusal(port).find("port") != std::string::npos, port);
  BOOST_TEST(!refusal("http://gpu:7860/sd?x=1").empty());
  BOOST_TEST(!refusal("http://gpu:7860/#frag").empty());
  BOOST_TEST(!refusal("http://gpu:7860/a b").empty());
  BOOST_TEST(!refusal("http://gpu?x").empty());
  BOOST_TEST(!refusal("http://gp u").empty());
  BOOST_TEST(!refusal("http://[::1").empty());
  BOOST_TEST(!refusal("http://[::1]x").empty());
  BOOST_TEST(!refusal("http://[zz]").empty());
}

// Inputs where Boost.URL and the parser it replaced could differ, each
// decided: an unescaped '@' in the credentials is refused (the old parser
// took the last one as the end of the userinfo), a percent-encoded or
// non-ASCII host names nothing DNS resolves, IPv6 zone ids are refused, a
// port keeps at most five digits, and escapes in the path pass on undecoded.
BOOST_AUTO_TEST_CASE(inputs_where_parsers_disagree_are_decided) {
  BOOST_TEST(!refusal("http://a:b@c@gpu:7860").empty());
  BOOST_TEST(refusal("http://gp%75:7860").find("host") != std::string::npos);
  BOOST_TEST(!refusal("http://g\xc3\xbcpu:7860").empty());
  BOOST_TEST(!refusal("http://[fe80::1%25eth0]:7860").empty());
  BOOST_TEST(!refusal("http://gpu\\@evil:7860").empty());
  BOOST_TEST(!refusal("http://gpu\\evil:7860").empty());
  BOOST_TEST(refusal("http://gpu:000007860").find("port") != std::string::npos);
  BOOST_TEST(parsed("http://gpu:07860").port == 7860);
  BOOST_TEST(parsed("http://gpu/a%00b/").base_path == "/a%00b");
  BOOST_TEST(parsed("http://[::ffff:127.0.0.1]:7860").host == "::ffff:127.0.0.1");
  BOOST_TEST(parsed("http://u%3Ax:p@gpu").authorization == "Basic dTp4OnA="); // u:x:p
  BOOST_TEST(parsed("http://user:@gpu").authorization == "Basic dXNlcjo="); // user:
}

BOOST_AUTO_TEST_SUITE_END()
