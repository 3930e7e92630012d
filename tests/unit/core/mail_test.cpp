#include "core/mail.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "core/crypto.hpp"

BOOST_AUTO_TEST_SUITE(core_mail)

namespace {

using svc::core::format_rfc5322;
using svc::core::from_unix_ms;
using svc::core::mail_message;

constexpr int64_t sunset_ms = 1785801600000; // 2026-08-04T00:00:00Z, a Tuesday

mail_message sample() {
  return {"Svc <noreply@svc.test>", "owner@acme.test", "Webhook endpoint disabled",
          "Hello,\n\nyour endpoint was disabled.\n"};
}

// The header block (without the blank line) and the body of a formatted message.
std::pair<std::string, std::string> split(const std::string& text) {
  auto end = text.find("\r\n\r\n");
  BOOST_REQUIRE(end != std::string::npos);
  return {text.substr(0, end + 2), text.substr(end + 4)};
}

std::vector<std::string> header_lines(const std::string& headers) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < headers.size()) {
    auto end = headers.find("\r\n", at);
    BOOST_REQUIRE(end != std::string::npos);
    out.push_back(headers.substr(at, end - at));
    at = end + 2;
  }
  return out;
}

// Every LF of `text` is part of a CRLF, and every CR is followed by LF.
bool only_crlf(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' && (i == 0 || text[i - 1] != '\r'))
      return false;
    if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'))
      return false;
  }
  return true;
}

} // namespace

BOOST_AUTO_TEST_CASE(formats_headers_in_order_and_the_body_with_crlf) {
  auto text = format_rfc5322(sample(), from_unix_ms(sunset_ms + 3723000), "01JTEST");
  BOOST_TEST(text
             == "From: Svc <noreply@svc.test>\r\n"
                "To: owner@acme.test\r\n"
                "Subject: Webhook endpoint disabled\r\n"
                "Date: Tue, 04 Aug 2026 01:02:03 +0000\r\n"
                "Message-ID: <01JTEST@svc>\r\n"
                "MIME-Version: 1.0\r\n"
                "Content-Type: text/plain; charset=utf-8\r\n"
                "Content-Transfer-Encoding: 8bit\r\n"
                "\r\n"
                "Hello,\r\n\r\nyour endpoint was disabled.\r\n");
}

BOOST_AUTO_TEST_CASE(body_line_ends_are_normalised_to_crlf) {
  auto m = sample();
  m.body = "a\nb\r\nc\rd\n\ne";
  auto [headers, body] = split(format_rfc5322(m, from_unix_ms(sunset_ms), "x"));
  BOOST_TEST(body == "a\r\nb\r\nc\r\nd\r\n\r\ne\r\n");
  m.body.clear();
  BOOST_TEST(split(format_rfc5322(m, from_unix_ms(sunset_ms), "x")).second.empty());
}

BOOST_AUTO_TEST_CASE(cr_and_lf_in_header_fields_cannot_inject_headers) {
  mail_message m{"Svc <noreply@svc.test>\r\nBcc: victim@evil.test", "owner@acme.test\nBcc: other@evil.test",
                 "Disabled\r\n\r\nInjected body\rX-Evil: 1", "body"};
  auto text = format_rfc5322(m, from_unix_ms(sunset_ms), "id\r\nX-Evil: 2");
  BOOST_TEST(only_crlf(text));
  auto [headers, body] = split(text);
  auto lines = header_lines(headers);
  BOOST_REQUIRE_EQUAL(lines.size(), 8u);
  BOOST_TEST(lines[0] == "From: Svc <noreply@svc.test>  Bcc: victim@evil.test");
  BOOST_TEST(lines[1] == "To: owner@acme.test Bcc: other@evil.test");
  BOOST_TEST(lines[2] == "Subject: Disabled    Injected body X-Evil: 1");
  BOOST_TEST(lines[4] == "Message-ID: <idX-Evil2@svc>");
  for (auto& line : lines) {
    BOOST_TEST(line.rfind("Bcc", 0) != 0u, line);
    BOOST_TEST(line.rfind("X-Evil", 0) != 0u, line);
  }
  BOOST_TEST(body == "body\r\n");
}

BOOST_AUTO_TEST_CASE(body_lines_that_look_like_headers_stay_in_the_body) {
  auto m = sample();
  m.body = "Bcc: someone@evil.test\n.\n";
  auto [headers, body] = split(format_rfc5322(m, from_unix_ms(sunset_ms), "x"));
  BOOST_TEST(header_lines(headers).size() == 8u);
  BOOST_TEST(body == "Bcc: someone@evil.test\r\n.\r\n");
}

BOOST_AUTO_TEST_CASE(non_ascii_header_text_is_rfc2047_encoded) {
  auto m = sample();
  m.subject = "Endpoint disabled for Zürich team";
  m.from = "Sväc <noreply@svc.test>";
  auto lines = header_lines(split(format_rfc5322(m, from_unix_ms(sunset_ms), "x")).first);
  BOOST_TEST(lines[0] == "From: =?UTF-8?B?" + svc::core::base64_encode("Sväc") + "?= <noreply@svc.test>");
  BOOST_TEST(lines[2] == "Subject: =?UTF-8?B?" + svc::core::base64_encode(m.subject) + "?=");
}

BOOST_AUTO_TEST_CASE(long_non_ascii_subjects_fold_into_short_words_split_between_characters) {
  auto m = sample();
  m.subject.clear();
  for (int i = 0; i < 40; ++i)
    m.subject += "é"; // 80 bytes: 36 + 36 + 8
  auto text = format_rfc5322(m, from_unix_ms(sunset_ms), "x");
  auto subject = text.substr(text.find("Subject: "));
  subject = subject.substr(0, subject.find("\r\nDate:"));
  BOOST_TEST(subject
             == "Subject: =?UTF-8?B?" + svc::core::base64_encode(m.subject.substr(0, 36)) + "?=\r\n =?UTF-8?B?"
                  + svc::core::base64_encode(m.subject.substr(36, 36)) + "?=\r\n =?UTF-8?B?"
                  + svc::core::base64_encode(m.subject.substr(72)) + "?=");
  for (auto& line : header_lines(split(text).first))
    BOOST_TEST(line.size() <= 76u, line);
}

BOOST_AUTO_TEST_CASE(an_encoded_word_never_splits_a_utf8_sequence) {
  auto m = sample();
  m.subject = "a";
  for (int i = 0; i < 20; ++i)
    m.subject += "é"; // byte 36 is the second byte of a character
  auto text = format_rfc5322(m, from_unix_ms(sunset_ms), "x");
  BOOST_TEST(text.find("Subject: =?UTF-8?B?" + svc::core::base64_encode(m.subject.substr(0, 35)) + "?=\r\n =?UTF-8?B?"
                       + svc::core::base64_encode(m.subject.substr(35)) + "?=\r\n")
             != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
