#include "http/upload_form.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <utility>
#include <vector>

BOOST_AUTO_TEST_SUITE(http_upload_form)

namespace {

using namespace svc::http;
using svc::schema::error_code;
using svc::schema::file_purpose;

const std::string boundary = "xYz";

// A body of (name, content) parts, each with a Content-Disposition.
std::string form(const std::vector<std::pair<std::string, std::string>>& parts, bool closed = true) {
  std::string body;
  for (auto& [name, content] : parts)
    body += "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name
            + "\"; filename=\"x.bin\"\r\nContent-Type: text/plain\r\n\r\n" + content + "\r\n";
  return body + (closed ? "--" + boundary + "--\r\n" : "");
}

// Feeds the body in pieces of `step` bytes, then finishes.
svc::schema::checked<upload> collect(const std::string& body, std::size_t step = 7) {
  upload_form f{boundary, body.size()};
  for (std::size_t at = 0; at < body.size(); at += step)
    if (!f.feed(body.substr(at, step)))
      return f.error();
  return f.finish();
}

void check_error(const svc::schema::checked<upload>& r, error_code code, const std::string& param) {
  BOOST_TEST_REQUIRE(!r);
  BOOST_TEST((r.error().code == code), r.error().message);
  BOOST_TEST(r.error().param == param);
}

} // namespace

BOOST_AUTO_TEST_CASE(collects_file_and_purpose_in_either_order) {
  std::string bytes = "\x89PNG\r\n\x1a\n\r\n--xY is no delimiter, nor is --xYz without CRLF";
  for (auto& body : {form({{"file", bytes}, {"purpose", "mask"}}), form({{"purpose", "init_image"}, {"file", bytes}})}) {
    auto r = collect(body);
    BOOST_TEST_REQUIRE(static_cast<bool>(r));
    BOOST_TEST(r.value().bytes == bytes);
  }
  BOOST_TEST((collect(form({{"file", bytes}, {"purpose", "mask"}})).value().purpose == file_purpose::mask));
  BOOST_TEST((collect(form({{"purpose", "init_image"}, {"file", ""}})).value().purpose == file_purpose::init_image));
  BOOST_TEST(collect(form({{"purpose", "init_image"}, {"file", ""}})).value().bytes.empty());
}

BOOST_AUTO_TEST_CASE(other_parts_are_unknown_parameters) {
  check_error(collect(form({{"file", "a"}, {"model", "x"}, {"purpose", "mask"}})), error_code::unknown_parameter, "model");
  check_error(collect(form({{std::string(300, 'n'), "x"}})), error_code::unknown_parameter, std::string(100, 'n'));
}

BOOST_AUTO_TEST_CASE(file_and_purpose_come_once) {
  check_error(collect(form({{"file", "a"}, {"file", "b"}, {"purpose", "mask"}})), error_code::invalid_parameter, "file");
  check_error(collect(form({{"purpose", "mask"}, {"file", "a"}, {"purpose", "mask"}})), error_code::invalid_parameter,
              "purpose");
}

BOOST_AUTO_TEST_CASE(missing_parts_name_file_first) {
  check_error(collect(form({})), error_code::invalid_parameter, "file");
  check_error(collect(form({{"purpose", "mask"}})), error_code::invalid_parameter, "file");
  check_error(collect(form({{"file", "a"}})), error_code::invalid_parameter, "purpose");
}

BOOST_AUTO_TEST_CASE(purpose_must_be_a_known_name) {
  for (std::string bad : std::vector<std::string>{"", "Mask", "init_image ", "thumbnail", std::string(10000, 'm')})
    check_error(collect(form({{"file", "a"}, {"purpose", bad}})), error_code::invalid_parameter, "purpose");
}

BOOST_AUTO_TEST_CASE(broken_or_unfinished_bodies_are_invalid_body) {
  auto open = form({{"file", "abc"}, {"purpose", "mask"}}, false);
  check_error(collect(open), error_code::invalid_body, "");
  check_error(collect(open.substr(0, open.size() / 2)), error_code::invalid_body, "");
  check_error(collect("--" + boundary + "\r\nNo-Colon\r\n\r\nx\r\n--" + boundary + "--"), error_code::invalid_body, "");
  auto r = collect(open);
  BOOST_TEST(r.error().message.find("closing boundary") != std::string::npos, r.error().message);
}

BOOST_AUTO_TEST_CASE(a_refused_form_stays_refused) {
  upload_form f{boundary, 0};
  BOOST_TEST(!f.feed(form({{"model", "x"}})));
  BOOST_TEST(!f.feed("more"));
  auto r = f.finish();
  check_error(r, error_code::unknown_parameter, "model");
}

BOOST_AUTO_TEST_SUITE_END()
