#include "bench/load/operation_mix.hpp"

#include <boost/test/unit_test.hpp>

#include <map>

BOOST_AUTO_TEST_SUITE(bench_operation_mix)

namespace {

using svc::bench::operation_mix;

const std::vector<std::string> names{"create", "poll", "download", "upload"};

operation_mix parsed(const std::string& spec) {
  std::string error;
  auto m = operation_mix::parse(spec, names, error);
  BOOST_TEST_REQUIRE(m.has_value(), error);
  return *m;
}

} // namespace

BOOST_AUTO_TEST_CASE(every_stretch_of_one_round_holds_the_shares_exactly) {
  auto m = parsed("create=1,poll=4,download=2,upload=1");
  for (int round = 0; round < 5; ++round) {
    std::map<std::size_t, int> seen;
    for (int i = 0; i < 8; ++i)
      ++seen[m.next()];
    BOOST_TEST(seen[0] == 1);
    BOOST_TEST(seen[1] == 4);
    BOOST_TEST(seen[2] == 2);
    BOOST_TEST(seen[3] == 1);
  }
}

BOOST_AUTO_TEST_CASE(operations_left_out_never_come) {
  auto m = parsed("poll=3");
  for (int i = 0; i < 10; ++i)
    BOOST_TEST(m.next() == 1U);
  BOOST_TEST(m.to_string(names) == "poll=3");
  BOOST_TEST(parsed("upload=0,create=2").to_string(names) == "create=2");
}

BOOST_AUTO_TEST_CASE(bad_specs_are_refused_with_a_reason) {
  for (const char* spec : {"", "create", "create=", "create=x", "fetch=1", "create=1,create=2", "create=0,poll=0",
                           "create=-1", "create=10000000", "create=1;poll=2"}) {
    std::string error;
    BOOST_TEST(!operation_mix::parse(spec, names, error).has_value(), spec);
    BOOST_TEST(!error.empty(), spec);
  }
}

BOOST_AUTO_TEST_SUITE_END()
