#pragma once
// Helpers shared by the request-validation tests: building bodies and
// checking the error a body gets.

#include <string>
#include <string_view>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "core/ids.hpp"
#include "schema/generation_request.hpp"

namespace svc::schema::testing {

namespace json = boost::json;
using namespace svc::schema;

inline json::object obj(std::string_view text) { return json::parse(text).as_object(); }

// A body with a valid prompt and one more field.
inline json::object with(std::string_view field, json::value v) {
  json::object o{{"prompt", "a red fox"}};
  o[field] = std::move(v);
  return o;
}

inline json::value str(const std::string& s) { return json::string(s); }

inline std::string repeat(std::string_view unit, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i)
    s += unit;
  return s;
}

template <class T>
void expect_error(const checked<T>& r, error_code code, std::string_view param) {
  BOOST_REQUIRE_MESSAGE(!r, "accepted; expected an error for " << param);
  BOOST_TEST(to_string(r.error().code) == to_string(code));
  BOOST_TEST(r.error().param == param);
  BOOST_TEST(r.error().message.find(std::string{"'"} + std::string{param} + "'") != std::string::npos,
             r.error().message);
}

inline void image_rejects(const json::object& body, std::string_view param,
                   error_code code = error_code::invalid_parameter) {
  BOOST_TEST_CONTEXT(json::serialize(body).substr(0, 200)) { expect_error(validate_image_request(body), code, param); }
}

inline void video_rejects(const json::object& body, std::string_view param,
                   error_code code = error_code::invalid_parameter) {
  BOOST_TEST_CONTEXT(json::serialize(body).substr(0, 200)) { expect_error(validate_video_request(body), code, param); }
}

inline image_request image_ok(const json::object& body) {
  auto r = validate_image_request(body);
  BOOST_REQUIRE_MESSAGE(r, json::serialize(body).substr(0, 200) << " rejected: " << (r ? "" : r.error().message));
  return r.value();
}

inline video_request video_ok(const json::object& body) {
  auto r = validate_video_request(body);
  BOOST_REQUIRE_MESSAGE(r, json::serialize(body).substr(0, 200) << " rejected: " << (r ? "" : r.error().message));
  return r.value();
}

} // namespace svc::schema::testing
