#pragma once
// Where a view is written. `json_text` appends JSON text to a string, byte for
// byte what boost::json::serialize writes for the same values, with no tree in
// between (the answers of the read path); `json_tree` builds the
// boost::json::value (events, lists, views that others extend). A view written
// once as a template over the sink serves both.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>
#include <boost/json/value_stack.hpp>

namespace svc::schema {

/// True when `d` shows as a JSON integer: whole, and inside int64's range with room (`50`, not `5E1`).
bool shows_as_integer(double d);

/// JSON text appended to a string.
class json_text {
public:
  explicit json_text(std::string& out) : out_{out} {}
  json_text& begin_object();
  json_text& end_object();
  json_text& begin_array();
  json_text& end_array();
  /// A member's name; its value comes next.
  json_text& key(std::string_view k);
  json_text& string(std::string_view s);
  json_text& integer(int64_t v);
  json_text& unsigned_integer(uint64_t v);
  /// A number as views show it: see `shows_as_integer`; else Boost.JSON's shortest double.
  json_text& number(double d);
  json_text& boolean(bool b);
  json_text& null();

private:
  json_text& open(char bracket);
  json_text& close(char bracket);
  template <class Integer>
  json_text& digits(Integer v);
  void separate();
  void quoted(std::string_view s);
  std::string& out_;
  bool after_value_ = false; ///< the next value or key at this level needs a comma
};

/// A boost::json::value built from the same calls.
class json_tree {
public:
  json_tree();
  json_tree& begin_object();
  json_tree& end_object();
  json_tree& begin_array();
  json_tree& end_array();
  json_tree& key(std::string_view k);
  json_tree& string(std::string_view s);
  json_tree& integer(int64_t v);
  json_tree& unsigned_integer(uint64_t v);
  json_tree& number(double d);
  json_tree& boolean(bool b);
  json_tree& null();
  /// The one value written (call once, after the last end).
  boost::json::value release();

private:
  json_tree& open();
  /// Ends the innermost container: the values it holds.
  std::size_t closed();
  json_tree& counted();
  boost::json::value_stack stack_;
  std::vector<std::size_t> sizes_; ///< values so far in each open container
};

} // namespace svc::schema
