#include "schema/json_numbers.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <limits>

#include <boost/json.hpp>

BOOST_AUTO_TEST_SUITE(schema_json_numbers)

namespace json = boost::json;
using svc::schema::exact_int64;
using svc::schema::finite_number;

BOOST_AUTO_TEST_CASE(exact_int64_takes_integers_that_fit) {
  BOOST_TEST(exact_int64(json::value(-7)).value() == -7);
  BOOST_TEST(exact_int64(json::value(INT64_MIN)).value() == INT64_MIN);
  BOOST_TEST(exact_int64(json::value(uint64_t{INT64_MAX})).value() == INT64_MAX);
}

BOOST_AUTO_TEST_CASE(exact_int64_refuses_doubles_and_what_does_not_fit) {
  BOOST_TEST(!exact_int64(json::value(uint64_t{INT64_MAX} + 1)).has_value());
  BOOST_TEST(!exact_int64(json::value(1024.0)).has_value());
  BOOST_TEST(!exact_int64(json::value("7")).has_value());
  BOOST_TEST(!exact_int64(json::value(true)).has_value());
  BOOST_TEST(!exact_int64(json::value(nullptr)).has_value());
}

BOOST_AUTO_TEST_CASE(finite_number_takes_doubles_and_integers) {
  BOOST_TEST(finite_number(json::value(0.5)).value() == 0.5);
  BOOST_TEST(finite_number(json::value(-3)).value() == -3.0);
  BOOST_TEST(finite_number(json::value(UINT64_MAX)).value() == static_cast<double>(UINT64_MAX));
}

BOOST_AUTO_TEST_CASE(finite_number_refuses_infinity_and_non_numbers) {
  BOOST_TEST(!finite_number(json::parse("1e400")).has_value());
  BOOST_TEST(!finite_number(json::value(-std::numeric_limits<double>::infinity())).has_value());
  BOOST_TEST(!finite_number(json::value("0.5")).has_value());
  BOOST_TEST(!finite_number(json::value(nullptr)).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
