#include "core/lazy_library.hpp"

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <string>

#include <zlib.h>

BOOST_AUTO_TEST_SUITE(core_lazy_library)

using svc::core::lazy_library;

namespace {

// zlib as the library to open: libpng, which svcd links, needs it anyway.
lazy_library zlib{"libz.so.1"};

} // namespace

// The test's own zlibVersion, resolved in the opened library: it answers
// what the linked one would, so the call went through to libz.
SVC_LAZY_FORWARD(zlib, const char*, zlibVersion, (void), ())

BOOST_AUTO_TEST_CASE(a_missing_library_is_an_error_every_time) {
  lazy_library missing{"libsvc-no-such-library.so.0"};
  std::string error;
  BOOST_TEST(!missing.load(error));
  BOOST_TEST(error.find("libsvc-no-such-library.so.0") != std::string::npos, error);
  std::string again;
  BOOST_TEST(!missing.load(again));
  BOOST_TEST(again == error);
}

BOOST_AUTO_TEST_CASE(a_forwarder_calls_the_opened_library) {
  std::string error;
  BOOST_REQUIRE_MESSAGE(zlib.load(error), error);
  BOOST_TEST(std::strcmp(zlibVersion(), ZLIB_VERSION) == 0, zlibVersion());
  BOOST_TEST(zlib.symbol("crc32") != nullptr);
}

BOOST_AUTO_TEST_SUITE_END()
