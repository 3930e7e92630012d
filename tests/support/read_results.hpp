#pragma once
// Store reads in tests: a read that failed fails the test, so the checks
// below it can treat the result as "found or absent".

#include <optional>

#include <boost/test/unit_test.hpp>

#include "persistence/environment.hpp"

namespace svc::test {

/// The value, or nullopt when absent; a failed read fails the test.
template <class T>
std::optional<T> found(persistence::read_result<T> r) {
  BOOST_REQUIRE_MESSAGE(!r.failed(), "store read failed: " << r.why());
  return std::move(r).found();
}

/// What a page or keys scan found; a failed scan fails the test.
template <class T>
T scanned(persistence::read_result<T> r) {
  BOOST_REQUIRE_MESSAGE(!r.failed(), "store scan failed: " << r.why());
  return std::move(*r);
}

/// A scan's outcome; a failed one fails the test.
inline void require_ok(const persistence::status& s) { BOOST_REQUIRE_MESSAGE(s.ok(), "store scan failed: " << s.message); }

} // namespace svc::test
