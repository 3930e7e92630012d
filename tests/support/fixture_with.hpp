#pragma once
// One variant of a parameterised fixture named in one line, for
// BOOST_FIXTURE_TEST_CASE (which takes a default-constructible type):
// `using hanging_back_end = svc::test::fixture_with<backend_neighbour, a1111_mode::hang>;`

namespace svc::test {

/// `Base` constructed from `Value`.
template <class Base, auto Value>
struct fixture_with : Base {
  fixture_with() : Base(Value) {}
};

} // namespace svc::test
