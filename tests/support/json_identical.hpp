#pragma once
// Comparing JSON trees in the tests of views. json::value's == takes 5 and 5u
// for equal and ignores member order: a view is compared stricter than that,
// kind for kind and member for member in order. Text read back is compared
// looser, as Boost 1.81's parser reads some doubles one unit in the last
// place off the shortest form its serializer writes.

#include <cmath>
#include <cstddef>

#include <boost/json/value.hpp>

namespace svc::test {

namespace json_detail {

template <class Same>
bool same_members(const boost::json::value& a, const boost::json::value& b, Same same) {
  if (a.is_object() != b.is_object() || a.is_array() != b.is_array())
    return false;
  if (a.is_object()) {
    auto &x = a.get_object(), &y = b.get_object();
    if (x.size() != y.size())
      return false;
    for (auto i = x.begin(), j = y.begin(); i != x.end(); ++i, ++j)
      if (i->key() != j->key() || !same(i->value(), j->value()))
        return false;
    return true;
  }
  auto &x = a.get_array(), &y = b.get_array();
  if (x.size() != y.size())
    return false;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!same(x[i], y[i]))
      return false;
  return true;
}

} // namespace json_detail

/// The same tree: kinds, member order and values.
inline bool json_identical(const boost::json::value& a, const boost::json::value& b) {
  if (a.kind() != b.kind())
    return false;
  if (a.is_object() || a.is_array())
    return json_detail::same_members(a, b, json_identical);
  return a == b;
}

/// `parsed` (text read back) holds what `view` holds, in the same order:
/// strings exactly, integers by value, doubles to within a few units in the last place.
inline bool json_reads_back(const boost::json::value& parsed, const boost::json::value& view) {
  if (parsed.is_object() || parsed.is_array())
    return json_detail::same_members(parsed, view, json_reads_back);
  if (parsed.is_double() && view.is_double()) {
    double a = parsed.get_double(), b = view.get_double();
    return a == b || std::fabs(a - b) <= 4e-16 * std::fabs(b);
  }
  return parsed == view;
}

} // namespace svc::test
