#include "http/query.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <utility>
#include <vector>

BOOST_AUTO_TEST_SUITE(http_query)

namespace {

using svc::http::parse_query;
using svc::http::query_params;
using svc::http::query_value;

// Renders pairs as `k=v|k=v` so a mismatch prints readably.
std::string flat(const query_params& q) {
  std::string out;
  for (auto& [k, v] : q)
    out += (out.empty() ? "" : "|") + k + "=" + v;
  return out;
}

} // namespace

BOOST_AUTO_TEST_CASE(pairs_in_order) {
  auto q = parse_query("limit=10&after=key_1&order=desc");
  BOOST_REQUIRE(q.size() == 3u);
  BOOST_TEST(q[0].first == "limit");
  BOOST_TEST(q[0].second == "10");
  BOOST_TEST(q[1].first == "after");
  BOOST_TEST(q[1].second == "key_1");
  BOOST_TEST(q[2].first == "order");
  BOOST_TEST(q[2].second == "desc");
}

BOOST_AUTO_TEST_CASE(empty_query) {
  BOOST_TEST(parse_query("").empty());
  BOOST_TEST(parse_query("&").empty());
  BOOST_TEST(parse_query("&&&").empty());
}

BOOST_AUTO_TEST_CASE(percent_decoding) {
  BOOST_TEST(flat(parse_query("b=x%20y")) == "b=x y");
  BOOST_TEST(flat(parse_query("p=%2Fv1%2fteam")) == "p=/v1/team");     // both cases of hex
  BOOST_TEST(flat(parse_query("k%3Dx=v%26w")) == "k=x=v&w");            // escaped separators stay data
  BOOST_TEST(flat(parse_query("e=%C3%A9")) == "e=\xC3\xA9");            // UTF-8 bytes
  BOOST_TEST(flat(parse_query("a=%41%42%43")) == "a=ABC");
  auto nul = parse_query("z=a%00b");
  BOOST_REQUIRE(nul.size() == 1u);
  BOOST_TEST(nul[0].second == std::string("a\0b", 3));
}

BOOST_AUTO_TEST_CASE(plus_is_a_space_and_escaped_plus_is_a_plus) {
  BOOST_TEST(flat(parse_query("q=a+b+c")) == "q=a b c");
  BOOST_TEST(flat(parse_query("q=a%2Bb")) == "q=a+b");
  BOOST_TEST(flat(parse_query("a+b=c")) == "a b=c");
}

BOOST_AUTO_TEST_CASE(empty_values_and_bare_names) {
  BOOST_TEST(flat(parse_query("a=&b")) == "a=|b=");
  BOOST_TEST(flat(parse_query("flag")) == "flag=");
  BOOST_TEST(flat(parse_query("=v")) == "=v");
  BOOST_TEST(flat(parse_query("a=1&&b=2&")) == "a=1|b=2");
  BOOST_TEST(flat(parse_query("x=1=2")) == "x=1=2");
}

BOOST_AUTO_TEST_CASE(malformed_escapes_are_kept_literally) {
  BOOST_TEST(flat(parse_query("a=%")) == "a=%");
  BOOST_TEST(flat(parse_query("a=%4")) == "a=%4");
  BOOST_TEST(flat(parse_query("a=%zz")) == "a=%zz");
  BOOST_TEST(flat(parse_query("a=%4g1")) == "a=%4g1");
  BOOST_TEST(flat(parse_query("a=%g4")) == "a=%g4");
  BOOST_TEST(flat(parse_query("a=100%")) == "a=100%");
  BOOST_TEST(flat(parse_query("a=%%41")) == "a=%A");
  BOOST_TEST(flat(parse_query("a=%41%")) == "a=A%");
  BOOST_TEST(flat(parse_query("%=1")) == "%=1");
}

BOOST_AUTO_TEST_CASE(query_value_gives_the_first) {
  auto q = parse_query("a=1&b=2&a=3&e=");
  BOOST_TEST((query_value(q, "a") == std::optional<std::string>{"1"}));
  BOOST_TEST((query_value(q, "b") == std::optional<std::string>{"2"}));
  BOOST_TEST((query_value(q, "e") == std::optional<std::string>{""}));
  BOOST_TEST(!query_value(q, "c").has_value());
  BOOST_TEST(!query_value(q, "A").has_value()); // names are case-sensitive
  BOOST_TEST(!query_value({}, "a").has_value());
}

BOOST_AUTO_TEST_CASE(decoded_names_are_looked_up) {
  auto q = parse_query("starting%5Fafter=key_9");
  BOOST_TEST((query_value(q, "starting_after") == std::optional<std::string>{"key_9"}));
}

// Where Boost.URL alone would refuse the query: what clients send raw reaches
// the handler as it was sent, as the hand-written parser did.
BOOST_AUTO_TEST_CASE(bytes_outside_rfc_3986_are_kept_literally) {
  BOOST_TEST(flat(parse_query("name=caf\xC3\xA9")) == "name=caf\xC3\xA9");
  BOOST_TEST(flat(parse_query("a=b#c")) == "a=b#c");
  BOOST_TEST(flat(parse_query("p=C:\\dir")) == "p=C:\\dir");
  BOOST_TEST(flat(parse_query("q=\"x\"&r={}|^`")) == "q=\"x\"|r={}|^`");
  BOOST_TEST(flat(parse_query("a=%2")) == "a=%2");
  BOOST_TEST(flat(parse_query("a=%252F")) == "a=%2F"); // decoded once only
}

BOOST_AUTO_TEST_SUITE_END()
