#include "http/console_page.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

#include "core/crypto.hpp"

BOOST_AUTO_TEST_SUITE(http_console_page)

using svc::http::operator_console;

namespace {

// The text between the first `open` and the following `close`.
std::string between(const std::string& text, const std::string& open, const std::string& close) {
  auto b = text.find(open);
  BOOST_REQUIRE(b != std::string::npos);
  b += open.size();
  auto e = text.find(close, b);
  BOOST_REQUIRE(e != std::string::npos);
  return text.substr(b, e - b);
}

std::string csp_hash(const std::string& text) {
  auto d = svc::core::sha256(text);
  return "'sha256-" + svc::core::base64_encode({reinterpret_cast<const char*>(d.data()), d.size()}) + "'";
}

} // namespace

BOOST_AUTO_TEST_CASE(inlines_the_stylesheet_and_the_script) {
  auto& html = operator_console().html;
  BOOST_TEST(html.rfind("<!doctype html>", 0) == 0u);
  BOOST_TEST(html.find("@CONSOLE_") == std::string::npos, "every marker is replaced");
  BOOST_TEST(between(html, "<style>", "</style>").find("border-collapse") != std::string::npos);
  BOOST_TEST(between(html, "<script>", "</script>").find("/admin/overview") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_policy_lets_exactly_the_inline_style_and_script_run) {
  auto& page = operator_console();
  auto& csp = page.content_security_policy;
  BOOST_TEST(csp.find("default-src 'none'") != std::string::npos);
  BOOST_TEST(csp.find("script-src " + csp_hash(between(page.html, "<script>", "</script>"))) != std::string::npos);
  BOOST_TEST(csp.find("style-src " + csp_hash(between(page.html, "<style>", "</style>"))) != std::string::npos);
  BOOST_TEST(csp.find("unsafe-inline") == std::string::npos);
  BOOST_TEST(csp.find("form-action 'none'") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(no_form_field_could_submit_the_token) {
  // A native submission sends only named fields: the token input has no name.
  auto form = between(operator_console().html, "<form", "</form>");
  BOOST_TEST(form.find("name=") == std::string::npos);
  BOOST_TEST(form.find("type=\"password\"") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
