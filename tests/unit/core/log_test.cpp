#include "core/log.hpp"

#define BOOST_TEST_MODULE core_log
#include <boost/test/unit_test.hpp>

#include <boost/json.hpp>

namespace {

using svc::core::format_log_line;
using svc::core::log_fields;
using svc::core::log_format;
using svc::core::log_level;

const char* now = "2026-11-25T09:00:00.000Z";

} // namespace

BOOST_AUTO_TEST_CASE(a_text_line_appends_fields_as_key_value) {
  log_fields f{{"status", "201"}, {"route", "/v1/images/{id}"}, {"team", ""}};
  BOOST_TEST(format_log_line(log_format::text, now, log_level::info, "access", "POST /v1/images 201", f)
             == "2026-11-25T09:00:00.000Z info access: POST /v1/images 201 status=201 route=/v1/images/{id} team=\"\"");
}

BOOST_AUTO_TEST_CASE(a_text_field_cannot_forge_a_line_or_a_field) {
  log_fields f{{"peer", "1.2.3.4\n2026 error x: forged"}, {"id", "a b=\"c\""}};
  auto line = format_log_line(log_format::text, now, log_level::warn, "http", "m", f);
  BOOST_TEST(line.find('\n') == std::string::npos);
  BOOST_TEST(line.find("peer=\"1.2.3.4?2026 error x: forged\"") != std::string::npos, line);
  BOOST_TEST(line.find("id=\"a b=\\\"c\\\"\"") != std::string::npos, line);
}

BOOST_AUTO_TEST_CASE(a_json_line_is_one_object_with_every_field) {
  log_fields f{{"status", "201"}, {"peer", "x\ny\"z"}};
  auto line = format_log_line(log_format::json, now, log_level::error, "access", "quote \" newline \n", f);
  BOOST_TEST(line.find('\n') == std::string::npos);
  auto v = boost::json::parse(line).as_object();
  BOOST_TEST(v.at("time").as_string() == now);
  BOOST_TEST(v.at("level").as_string() == "error");
  BOOST_TEST(v.at("component").as_string() == "access");
  BOOST_TEST(v.at("message").as_string() == "quote \" newline \n");
  BOOST_TEST(v.at("status").as_string() == "201");
  BOOST_TEST(v.at("peer").as_string() == "x\ny\"z");
}
