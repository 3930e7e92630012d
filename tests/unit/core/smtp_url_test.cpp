#include "core/smtp_url.hpp"

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(core_smtp_url)

using svc::core::parse_smtp_url;
using svc::core::smtp_security;

BOOST_AUTO_TEST_CASE(host_port_is_plain_smtp_as_before) {
  auto r = parse_smtp_url("127.0.0.1:2525");
  BOOST_REQUIRE(r);
  BOOST_TEST((r->security == smtp_security::none));
  BOOST_TEST(r->host == "127.0.0.1");
  BOOST_TEST(r->port == 2525);
  BOOST_TEST(r->user == "");
  BOOST_TEST(r->url() == "smtp://127.0.0.1:2525");
  BOOST_TEST(parse_smtp_url("[::1]:25")->url() == "smtp://[::1]:25");
  BOOST_TEST(parse_smtp_url("mail.example.com:25")->host == "mail.example.com");
}

BOOST_AUTO_TEST_CASE(host_port_needs_a_port_and_no_user) {
  BOOST_TEST(!parse_smtp_url("127.0.0.1"));
  BOOST_TEST(!parse_smtp_url("no-port"));
  BOOST_TEST(!parse_smtp_url("127.0.0.1:0"));
  BOOST_TEST(!parse_smtp_url("127.0.0.1:65536"));
  BOOST_TEST(!parse_smtp_url("127.0.0.1:000025"));
  BOOST_TEST(!parse_smtp_url("user@127.0.0.1:25"));
  BOOST_TEST(!parse_smtp_url(":25"));
  BOOST_TEST(!parse_smtp_url(""));
}

BOOST_AUTO_TEST_CASE(smtp_urls_require_starttls_and_smtps_is_implicit_tls) {
  auto r = parse_smtp_url("smtp://apikey@mail.example.com:587");
  BOOST_REQUIRE(r);
  BOOST_TEST((r->security == smtp_security::starttls));
  BOOST_TEST(r->user == "apikey");
  BOOST_TEST(!r->has_password);
  BOOST_TEST(r->url() == "smtp://mail.example.com:587");
  auto s = parse_smtp_url("SMTPS://[::1]/");
  BOOST_REQUIRE(s);
  BOOST_TEST((s->security == smtp_security::implicit));
  BOOST_TEST(s->port == 465);
  BOOST_TEST(s->url() == "smtps://[::1]:465");
  BOOST_TEST(parse_smtp_url("smtp://relay.test")->port == 25);
}

BOOST_AUTO_TEST_CASE(the_user_is_percent_decoded_and_a_password_is_flagged) {
  auto r = parse_smtp_url("smtp://ops%40acme.test@relay.test:587");
  BOOST_REQUIRE(r);
  BOOST_TEST(r->user == "ops@acme.test");
  auto p = parse_smtp_url("smtp://ops:hunter2@relay.test:587");
  BOOST_REQUIRE(p);
  BOOST_TEST(p->has_password);
  BOOST_TEST(p->url().find("hunter2") == std::string::npos);
  BOOST_TEST(!parse_smtp_url("smtp://ops%0d%0aRCPT@relay.test"));
  BOOST_TEST(!parse_smtp_url("smtp://@relay.test"));
}

BOOST_AUTO_TEST_CASE(other_urls_are_refused) {
  BOOST_TEST(!parse_smtp_url("http://relay.test:25"));
  BOOST_TEST(!parse_smtp_url("smtp://relay.test:25/path"));
  BOOST_TEST(!parse_smtp_url("smtp://relay.test:25?x=1"));
  BOOST_TEST(!parse_smtp_url("smtp://relay.test:25#f"));
  BOOST_TEST(!parse_smtp_url("smtp://"));
  BOOST_TEST(!parse_smtp_url("smtp://relay.test:99999"));
  BOOST_TEST(!parse_smtp_url("smtp://rel%61y.test"));
  BOOST_TEST(!parse_smtp_url("smtp://b\xc3\xbc" "cher.test"));
  BOOST_TEST(!parse_smtp_url("smtp://relay.test\\@evil.test"));
  BOOST_TEST(!parse_smtp_url("smtp://[v1.x]:25"));
}

BOOST_AUTO_TEST_SUITE_END()
