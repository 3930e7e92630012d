#include "http/client_address.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <utility>
#include <vector>

BOOST_AUTO_TEST_SUITE(http_client_address)

namespace net = boost::asio;
using svc::http::client_address;
using svc::http::client_key;
using svc::http::http_request;

namespace {

net::ip::address ip(const std::string& text) { return net::ip::make_address(text); }

http_request with(std::vector<std::pair<std::string, std::string>> fields) {
  http_request req{boost::beast::http::verb::get, "/v1/team", 11};
  for (auto& [name, value] : fields)
    req.insert(name, value);
  return req;
}

const auto trusted = *svc::core::parse_cidr_list("10.0.0.0/8, fd00::/8");

using svc::http::forwarding_header;

std::string client_of(const std::string& peer, std::vector<std::pair<std::string, std::string>> fields,
                      forwarding_header header = forwarding_header::x_forwarded_for) {
  return client_address(ip(peer), with(std::move(fields)), trusted, header).to_string();
}

std::string client_by_forwarded(const std::string& peer, std::vector<std::pair<std::string, std::string>> fields) {
  return client_of(peer, std::move(fields), forwarding_header::forwarded);
}

} // namespace

BOOST_AUTO_TEST_CASE(headers_of_an_untrusted_peer_are_ignored) {
  BOOST_TEST(client_of("203.0.113.9", {{"X-Forwarded-For", "198.51.100.1"}}) == "203.0.113.9");
  BOOST_TEST(client_by_forwarded("203.0.113.9", {{"Forwarded", "for=198.51.100.1"}}) == "203.0.113.9");
  BOOST_TEST(client_address(ip("10.0.0.1"), with({{"X-Forwarded-For", "198.51.100.1"}}), {},
                            forwarding_header::x_forwarded_for).to_string()
             == "10.0.0.1", "no trusted proxies configured");
}

BOOST_AUTO_TEST_CASE(the_right_most_untrusted_hop_is_the_client) {
  BOOST_TEST(client_of("10.0.0.1", {}) == "10.0.0.1", "a trusted peer that forwarded nothing");
  BOOST_TEST(client_of("10.0.0.1", {{"X-Forwarded-For", "198.51.100.1"}}) == "198.51.100.1");
  // The left-most entry is whatever the client sent: a forgery must not win.
  BOOST_TEST(client_of("10.0.0.1", {{"X-Forwarded-For", "1.1.1.1, 198.51.100.1, 10.0.0.7"}}) == "198.51.100.1");
  BOOST_TEST(client_of("10.0.0.1", {{"X-Forwarded-For", "1.1.1.1"}, {"X-Forwarded-For", "198.51.100.1"}})
             == "198.51.100.1", "several field lines are one list");
  BOOST_TEST(client_of("10.0.0.1", {{"X-Forwarded-For", "10.0.0.9, 10.0.0.7"}}) == "10.0.0.9", "all trusted: the left-most");
  BOOST_TEST(client_of("::ffff:10.0.0.1", {{"X-Forwarded-For", "198.51.100.1"}}) == "198.51.100.1",
             "an IPv4-mapped peer matches an IPv4 range");
}

BOOST_AUTO_TEST_CASE(hops_may_carry_ports_brackets_and_quotes) {
  BOOST_TEST(client_of("10.0.0.1", {{"X-Forwarded-For", "198.51.100.1:4711"}}) == "198.51.100.1");
  BOOST_TEST(client_of("10.0.0.1", {{"X-Forwarded-For", "2001:db8::17"}}) == "2001:db8::17");
  BOOST_TEST(client_of("10.0.0.1", {{"X-Forwarded-For", "[2001:db8::17]:4711"}}) == "2001:db8::17");
  BOOST_TEST(client_by_forwarded("fd00::1", {{"Forwarded", "for=\"[2001:db8:cafe::17]:4711\";proto=https"}})
             == "2001:db8:cafe::17");
  BOOST_TEST(client_by_forwarded("10.0.0.1", {{"Forwarded", "for=1.1.1.1, FOR=198.51.100.1;by=10.0.0.1"}})
             == "198.51.100.1");
  BOOST_TEST(client_by_forwarded("10.0.0.1", {{"Forwarded", "proto=https;for=198.51.100.1"}}) == "198.51.100.1");
}

// nginx and ALB append to X-Forwarded-For and pass a client's own Forwarded
// through untouched: reading it would let the client name its address.
BOOST_AUTO_TEST_CASE(only_the_configured_header_names_the_client) {
  std::vector<std::pair<std::string, std::string>> both{{"X-Forwarded-For", "198.51.100.1"},
                                                        {"Forwarded", "for=1.1.1.1"}};
  BOOST_TEST(client_of("10.0.0.1", both) == "198.51.100.1", "the default: X-Forwarded-For");
  BOOST_TEST(client_of("10.0.0.1", {{"Forwarded", "for=1.1.1.1"}}) == "10.0.0.1",
             "a Forwarded header alone names no one by default");
  BOOST_TEST(client_by_forwarded("10.0.0.1", {{"X-Forwarded-For", "198.51.100.1"}, {"Forwarded", "for=1.1.1.2"}})
             == "1.1.1.2");
  BOOST_TEST(client_by_forwarded("10.0.0.1", {{"X-Forwarded-For", "198.51.100.1"}}) == "10.0.0.1",
             "behind a proxy that writes Forwarded, X-Forwarded-For is the client's own");
}

BOOST_AUTO_TEST_CASE(a_hop_that_is_no_address_stops_at_the_proxy_that_reported_it) {
  BOOST_TEST(client_by_forwarded("10.0.0.1", {{"Forwarded", "for=unknown"}}) == "10.0.0.1");
  BOOST_TEST(client_by_forwarded("10.0.0.1", {{"Forwarded", "for=_hidden, for=10.0.0.5"}}) == "10.0.0.5");
  BOOST_TEST(client_of("10.0.0.1", {{"X-Forwarded-For", "1.1.1.1, garbage"}}) == "10.0.0.1");
  BOOST_TEST(client_of("10.0.0.1", {{"X-Forwarded-For", "1.1.1.1,,"}}) == "10.0.0.1");
  BOOST_TEST(client_of("10.0.0.1", {{"X-Forwarded-For", "fe80::1%eth0"}}) == "10.0.0.1");
  BOOST_TEST(client_of("10.0.0.1", {{"X-Forwarded-For", "[2001:db8::1"}}) == "10.0.0.1");
  BOOST_TEST(client_by_forwarded("10.0.0.1", {{"Forwarded", "by=10.0.0.1"}}) == "10.0.0.1");
}

BOOST_AUTO_TEST_CASE(ipv6_clients_are_keyed_by_their_slash_64) {
  BOOST_TEST(client_key(ip("203.0.113.9")) == "203.0.113.9");
  BOOST_TEST(client_key(ip("::ffff:203.0.113.9")) == "203.0.113.9");
  BOOST_TEST(client_key(ip("2001:db8:1:2:aaaa:bbbb:cccc:dddd")) == "2001:db8:1:2::/64");
  BOOST_TEST(client_key(ip("2001:db8:1:2::1")) == client_key(ip("2001:db8:1:2:ffff::9")));
  BOOST_TEST(client_key(ip("2001:db8:1:2::1")) != client_key(ip("2001:db8:1:3::1")));
  BOOST_TEST(client_key(ip("::1")) == "::/64");
}

BOOST_AUTO_TEST_SUITE_END()
