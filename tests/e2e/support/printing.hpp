#pragma once
// Lets BOOST_TEST print the values the e2e tests compare: std::optional
// (header and JSON integers) and std::chrono durations.

#include <boost/test/tools/detail/print_helper.hpp>

#include <chrono>
#include <optional>
#include <ostream>

namespace boost::test_tools::tt_detail {

/// Prints the value, or `nullopt`.
template <class T>
struct print_log_value<std::optional<T>> {
  void operator()(std::ostream& os, const std::optional<T>& v) {
    if (v)
      print_log_value<T>()(os, *v);
    else
      os << "nullopt";
  }
};

/// Prints the tick count and the unit ratio.
template <class Rep, class Period>
struct print_log_value<std::chrono::duration<Rep, Period>> {
  void operator()(std::ostream& os, const std::chrono::duration<Rep, Period>& d) {
    os << d.count() << " x " << Period::num << "/" << Period::den << " s";
  }
};

} // namespace boost::test_tools::tt_detail
