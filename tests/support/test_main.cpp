// The main() and master suite of every Boost.Test executable (cmake/testing.cmake):
// the suites are the test files linked beside it.
#define BOOST_TEST_MODULE svc
#include <boost/test/unit_test.hpp>
