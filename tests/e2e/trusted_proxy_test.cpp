// Behind a reverse proxy every client arrives from the proxy's address. With
// --trusted-proxy, the anonymous rate bucket is the client's that the proxy
// named in X-Forwarded-For (the right-most untrusted hop, so a forged entry
// to its left changes nothing), IPv6 clients by their /64; without it, the
// header is ignored, since any client could write it.
#include <boost/test/unit_test.hpp>

#include <string>

#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_trusted_proxy)

using namespace svc::e2e;

namespace {

struct behind_loopback_proxy : server_fixture {
  behind_loopback_proxy() : server_fixture({"--trusted-proxy", "127.0.0.0/8"}) {}
};

// Tokens left in the anonymous bucket an unauthenticated request drew from,
// below the bucket's capacity.
std::int64_t used_of(http_client& c, const std::string& forwarded_for) {
  auto r = c.get("/v1/team", {{"X-Forwarded-For", forwarded_for}});
  BOOST_TEST(r.status == 401, r.summary());
  return header_int(r, "X-RateLimit-Limit").value_or(0) - header_int(r, "X-RateLimit-Remaining").value_or(0);
}

// Draws twenty tokens as `forwarded_for`; returns how far under capacity the bucket is.
std::int64_t drain_some(http_client& c, const std::string& forwarded_for) {
  std::int64_t used = 0;
  for (int i = 0; i < 20; ++i)
    used = used_of(c, forwarded_for);
  return used;
}

// A bucket that gave twenty tokens is well under capacity, a fresh one only
// by the token just taken (refill is a few tokens per second).
constexpr std::int64_t drained = 15, fresh = 3;

} // namespace

BOOST_FIXTURE_TEST_CASE(a_trusted_proxy_names_the_client, behind_loopback_proxy) {
  auto c = api();
  BOOST_TEST(drain_some(c, "203.0.113.7") >= drained);
  BOOST_TEST(used_of(c, "203.0.113.8") <= fresh, "another client has its own bucket");
  BOOST_TEST(used_of(c, "198.51.100.1, 203.0.113.7") >= drained, "a forged left-most entry does not buy a new bucket");
  BOOST_TEST(drain_some(c, "203.0.113.9, 127.0.0.9") >= drained, "trusted hops are skipped...");
  BOOST_TEST(used_of(c, "203.0.113.9") >= drained, "...to the client");
}

BOOST_FIXTURE_TEST_CASE(ipv6_clients_share_a_bucket_per_slash_64, behind_loopback_proxy) {
  auto c = api();
  BOOST_TEST(drain_some(c, "2001:db8:1:2::1") >= drained);
  BOOST_TEST(used_of(c, "2001:db8:1:2:ffff::99") >= drained, "same /64, same bucket");
  BOOST_TEST(used_of(c, "2001:db8:1:3::1") <= fresh, "another /64");
}

BOOST_FIXTURE_TEST_CASE(an_untrusted_peer_cannot_choose_its_bucket, server_fixture) {
  auto c = api();
  BOOST_TEST(drain_some(c, "203.0.113.7") >= drained);
  BOOST_TEST(used_of(c, "203.0.113.8") >= drained, "the header is ignored: still the peer's bucket");
}

BOOST_AUTO_TEST_SUITE_END()
