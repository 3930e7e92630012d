#include "schema/json_sink.hpp"

#include <charconv>
#include <cmath>

#include <boost/json/serializer.hpp>

namespace svc::schema {

bool shows_as_integer(double d) {
  // The range test comes first: converting a double outside int64's range is undefined.
  return d < 9.0e15 && d > -9.0e15 && d == std::trunc(d);
}

json_text& json_text::begin_object() { return open('{'); }
json_text& json_text::end_object() { return close('}'); }
json_text& json_text::begin_array() { return open('['); }
json_text& json_text::end_array() { return close(']'); }

json_text& json_text::key(std::string_view k) {
  separate();
  quoted(k);
  out_.push_back(':');
  after_value_ = false; // the value follows the colon
  return *this;
}

json_text& json_text::string(std::string_view s) {
  separate();
  quoted(s);
  after_value_ = true;
  return *this;
}

json_text& json_text::integer(int64_t v) { return digits(v); }
json_text& json_text::unsigned_integer(uint64_t v) { return digits(v); }

json_text& json_text::number(double d) {
  if (shows_as_integer(d))
    return integer(static_cast<int64_t>(d));
  separate();
  // Boost.JSON's own formatting (`5E-1`), so the text equals what serialize writes.
  boost::json::value v(d); // not braces: those make an array
  boost::json::serializer sr;
  sr.reset(&v);
  char buf[64];
  out_.append(sr.read(buf, sizeof buf));
  after_value_ = true;
  return *this;
}

json_text& json_text::boolean(bool b) {
  separate();
  out_.append(b ? "true" : "false");
  after_value_ = true;
  return *this;
}

json_text& json_text::null() {
  separate();
  out_.append("null");
  after_value_ = true;
  return *this;
}

json_text& json_text::open(char bracket) {
  separate();
  out_.push_back(bracket);
  after_value_ = false;
  return *this;
}

json_text& json_text::close(char bracket) {
  out_.push_back(bracket);
  after_value_ = true;
  return *this;
}

template <class Integer>
json_text& json_text::digits(Integer v) {
  separate();
  char buf[24];
  auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  out_.append(buf, end);
  after_value_ = true;
  return *this;
}

void json_text::separate() {
  if (after_value_)
    out_.push_back(',');
}

// Boost.JSON's escapes: `"` and `\`, the short forms \b \t \n \f \r, any other
// control byte as \u00xx (lowercase hex); every other byte as it is.
void json_text::quoted(std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  out_.push_back('"');
  std::size_t plain = 0; // start of the run not yet copied
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\')
      continue;
    out_.append(s.data() + plain, i - plain);
    plain = i + 1;
    out_.push_back('\\');
    switch (c) {
      case '"': out_.push_back('"'); break;
      case '\\': out_.push_back('\\'); break;
      case '\b': out_.push_back('b'); break;
      case '\t': out_.push_back('t'); break;
      case '\n': out_.push_back('n'); break;
      case '\f': out_.push_back('f'); break;
      case '\r': out_.push_back('r'); break;
      default:
        out_.append("u00");
        out_.push_back(hex[c >> 4]);
        out_.push_back(hex[c & 15]);
    }
  }
  out_.append(s.data() + plain, s.size() - plain);
  out_.push_back('"');
}

json_tree::json_tree() { stack_.reset(); }

json_tree& json_tree::begin_object() { return open(); }

json_tree& json_tree::end_object() {
  stack_.push_object(closed());
  return counted();
}

json_tree& json_tree::begin_array() { return open(); }

json_tree& json_tree::end_array() {
  stack_.push_array(closed());
  return counted();
}

json_tree& json_tree::key(std::string_view k) {
  stack_.push_key(k);
  return *this;
}

json_tree& json_tree::string(std::string_view s) {
  stack_.push_string(s);
  return counted();
}

json_tree& json_tree::integer(int64_t v) {
  stack_.push_int64(v);
  return counted();
}

json_tree& json_tree::unsigned_integer(uint64_t v) {
  stack_.push_uint64(v);
  return counted();
}

json_tree& json_tree::number(double d) {
  if (shows_as_integer(d))
    stack_.push_int64(static_cast<int64_t>(d));
  else
    stack_.push_double(d);
  return counted();
}

json_tree& json_tree::boolean(bool b) {
  stack_.push_bool(b);
  return counted();
}

json_tree& json_tree::null() {
  stack_.push_null();
  return counted();
}

boost::json::value json_tree::release() { return stack_.release(); }

json_tree& json_tree::open() {
  sizes_.push_back(0);
  return *this;
}

std::size_t json_tree::closed() {
  auto n = sizes_.back();
  sizes_.pop_back();
  return n;
}

json_tree& json_tree::counted() {
  if (!sizes_.empty())
    ++sizes_.back();
  return *this;
}

} // namespace svc::schema
