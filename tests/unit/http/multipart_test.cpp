#include "http/multipart.hpp"

#include <boost/test/unit_test.hpp>

#include <random>
#include <string>
#include <vector>

BOOST_AUTO_TEST_SUITE(http_multipart)

namespace {

using namespace svc::http;

// Records every event as text: `begin name|filename|type`, the data of each
// part joined, `end`.
struct recorder final : part_handler {
  std::vector<std::string> events;
  std::size_t stop_at_begin = 0; ///< refuse the n-th part (1-based); 0: never
  std::size_t parts = 0;
  bool on_part_begin(const part_header& h) override {
    events.push_back("begin " + h.name + "|" + h.filename.value_or("-") + "|" + h.content_type);
    return ++parts != stop_at_begin;
  }
  bool on_part_data(std::string_view bytes) override {
    BOOST_TEST(!bytes.empty());
    if (events.empty() || events.back().rfind("data ", 0) != 0)
      events.push_back("data ");
    events.back().append(bytes);
    return true;
  }
  bool on_part_end() override {
    events.push_back("end");
    return true;
  }
};

struct outcome {
  std::vector<std::string> events;
  multipart_error error;
};

// Feeds `body` cut at `cuts` (increasing offsets), then finishes.
outcome parse(std::string_view boundary, std::string_view body, const std::vector<std::size_t>& cuts = {}) {
  recorder r;
  multipart_parser p{boundary, r};
  std::size_t from = 0;
  auto e = multipart_error::none;
  for (auto cut : cuts) {
    // Each piece a copy of exactly its bytes, so a read past a piece is caught under ASan.
    std::string piece{body.substr(from, cut - from)};
    e = p.feed(piece);
    from = cut;
  }
  std::string last{body.substr(from)};
  e = p.feed(last);
  if (e == multipart_error::none)
    e = p.finish();
  return {std::move(r.events), e};
}

const std::string boundary = "----formBoundary7MA4YWxk";

std::string two_part_body(const std::string& file_bytes) {
  return "preamble to ignore\r\n--" + boundary + "\r\n"
         + "Content-Disposition: form-data; name=\"purpose\"\r\n\r\n"
         + "init_image\r\n--" + boundary + "\r\n"
         + "Content-Disposition: form-data; name=\"file\"; filename=\"a \\\"b\\\".png\"\r\n"
         + "Content-Type: application/octet-stream\r\n\r\n" + file_bytes + "\r\n--" + boundary + "--\r\n"
         + "epilogue --" + boundary + " ignored";
}

std::vector<std::string> two_part_events(const std::string& file_bytes) {
  std::vector<std::string> e{"begin purpose|-|", "data init_image", "end",
                             "begin file|a \"b\".png|application/octet-stream"};
  if (!file_bytes.empty())
    e.push_back("data " + file_bytes);
  e.push_back("end");
  return e;
}

} // namespace

BOOST_AUTO_TEST_CASE(parses_parts_headers_and_bytes) {
  auto got = parse(boundary, two_part_body("\x89PNG\r\n\x1a\n data"));
  BOOST_TEST((got.error == multipart_error::none));
  BOOST_TEST(got.events == two_part_events("\x89PNG\r\n\x1a\n data"), boost::test_tools::per_element());
}

// Content that looks like the start of a delimiter, split anywhere.
BOOST_AUTO_TEST_CASE(every_split_point_gives_the_same_parts) {
  std::string tricky = "\r\r\n\r\n-\r\n--\r\n--" + boundary.substr(0, 10) + "\r\n--" + boundary.substr(0, boundary.size() - 1)
                       + "x\r\n---" + boundary + "\r";
  auto body = two_part_body(tricky);
  auto expected = two_part_events(tricky);
  for (std::size_t cut = 0; cut <= body.size(); ++cut) {
    auto got = parse(boundary, body, {cut});
    BOOST_TEST_CONTEXT("cut at " << cut) {
      BOOST_TEST((got.error == multipart_error::none));
      BOOST_TEST(got.events == expected, boost::test_tools::per_element());
    }
  }
}

BOOST_AUTO_TEST_CASE(every_pair_of_split_points_and_single_bytes) {
  auto body = two_part_body("\r\n--x\r");
  auto expected = two_part_events("\r\n--x\r");
  for (std::size_t a = 0; a <= body.size(); a += 3)
    for (std::size_t b = a; b <= body.size(); ++b) {
      auto got = parse(boundary, body, {a, b});
      BOOST_TEST_REQUIRE((got.error == multipart_error::none), a << "," << b);
      BOOST_TEST_REQUIRE((got.events == expected), a << "," << b);
    }
  std::vector<std::size_t> every;
  for (std::size_t i = 1; i < body.size(); ++i)
    every.push_back(i);
  auto got = parse(boundary, body, every);
  BOOST_TEST((got.error == multipart_error::none));
  BOOST_TEST(got.events == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(random_binary_content_in_random_chunks) {
  std::mt19937 rng{7578};
  std::string content(256 * 1024, '\0');
  for (auto& c : content) // many CRs, LFs and dashes, so delimiter starts are frequent
    c = "\r\n-ab\0\xff"[rng() % 7];
  auto body = two_part_body(content);
  for (int round = 0; round < 20; ++round) {
    std::vector<std::size_t> cuts;
    for (std::size_t at = rng() % 5000; at < body.size(); at += 1 + rng() % 5000)
      cuts.push_back(at);
    auto got = parse(boundary, body, cuts);
    BOOST_TEST_REQUIRE((got.error == multipart_error::none));
    BOOST_TEST_REQUIRE(got.events.size() == 6u);
    BOOST_TEST((got.events[4] == "data " + content));
  }
}

BOOST_AUTO_TEST_CASE(empty_parts_padding_and_a_body_starting_with_the_delimiter) {
  auto body = "--" + boundary + " \t\r\nContent-Disposition: form-data; name=a\r\n\r\n\r\n--" + boundary
              + "\r\ncontent-disposition:FORM-DATA;NAME=\"b\" ; filename=\"\"\r\n\r\nx\r\n--" + boundary + "--";
  auto got = parse(boundary, body);
  BOOST_TEST((got.error == multipart_error::none));
  std::vector<std::string> expected{"begin a|-|", "end", "begin b||", "data x", "end"};
  BOOST_TEST(got.events == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_body_without_its_close_delimiter_is_truncated) {
  auto body = two_part_body("abc");
  auto close = body.find(boundary + "--");
  for (auto end : {std::size_t{0}, std::size_t{10}, body.find("init_image"), body.find("abc") + 2, close + boundary.size(),
                   close + boundary.size() + 1}) {
    auto got = parse(boundary, body.substr(0, end));
    BOOST_TEST((got.error == multipart_error::truncated), "cut at " << end);
  }
  // No delimiter at all.
  BOOST_TEST((parse(boundary, "just some text").error == multipart_error::truncated));
}

BOOST_AUTO_TEST_CASE(broken_framing_is_malformed) {
  auto part = "Content-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--" + boundary + "--";
  // The boundary continues with other characters, or LF-only line ends.
  BOOST_TEST((parse(boundary, "--" + boundary + "X\r\n" + part).error == multipart_error::malformed));
  BOOST_TEST((parse(boundary, "--" + boundary + "\n" + part).error == multipart_error::malformed));
  BOOST_TEST((parse(boundary, "--" + boundary + "\r\r" + part).error == multipart_error::malformed));
  BOOST_TEST((parse(boundary, "--" + boundary + "-x").error == multipart_error::malformed));
  // Header lines without a colon, folded, with a bad name or an unclosed quote.
  for (std::string headers : {"Content-Disposition form-data\r\n", "Content-Disposition: form-data; name=a\r\n folded\r\n",
                              "Bad Name: x\r\nContent-Disposition: form-data; name=a\r\n",
                              "Content-Disposition: form-data; name=\"a\r\n",
                              "Content-Disposition: form-data; name=a; =b\r\n"}) {
    auto got = parse(boundary, "--" + boundary + "\r\n" + headers + "\r\nx\r\n--" + boundary + "--");
    BOOST_TEST((got.error == multipart_error::malformed), headers);
  }
}

BOOST_AUTO_TEST_CASE(a_part_needs_a_form_data_name) {
  for (std::string headers : {"", "Content-Type: text/plain\r\n", "Content-Disposition: attachment; name=a\r\n",
                              "Content-Disposition: form-data\r\n", "Content-Disposition: form-data; filename=a\r\n",
                              "Content-Disposition: form-data; name=\"\"\r\n",
                              "Content-Disposition: form-data; name=a\r\nContent-Disposition: form-data; name=b\r\n"}) {
    auto got = parse(boundary, "--" + boundary + "\r\n" + headers + "\r\nx\r\n--" + boundary + "--");
    BOOST_TEST((got.error == multipart_error::no_name), headers);
    BOOST_TEST(got.events.empty());
  }
}

BOOST_AUTO_TEST_CASE(part_headers_are_limited) {
  std::string big = "Content-Disposition: form-data; name=a\r\nX-Pad: " + std::string(max_part_header_bytes, 'p') + "\r\n";
  auto got = parse(boundary, "--" + boundary + "\r\n" + big + "\r\nx\r\n--" + boundary + "--");
  BOOST_TEST((got.error == multipart_error::headers_too_large));
  std::string fits = "Content-Disposition: form-data; name=a\r\nX-Pad: " + std::string(max_part_header_bytes - 100, 'p') + "\r\n";
  BOOST_TEST((parse(boundary, "--" + boundary + "\r\n" + fits + "\r\nx\r\n--" + boundary + "--").error
              == multipart_error::none));
}

BOOST_AUTO_TEST_CASE(a_refusing_handler_stops_the_parse_for_good) {
  recorder r;
  r.stop_at_begin = 2;
  multipart_parser p{boundary, r};
  auto body = two_part_body("abc");
  BOOST_TEST((p.feed(body) == multipart_error::stopped));
  BOOST_TEST(r.events.back() == "begin file|a \"b\".png|application/octet-stream");
  auto seen = r.events.size();
  BOOST_TEST((p.feed(body) == multipart_error::stopped));
  BOOST_TEST((p.finish() == multipart_error::stopped));
  BOOST_TEST(r.events.size() == seen);
}

BOOST_AUTO_TEST_CASE(errors_have_sentences) {
  for (auto e : {multipart_error::malformed, multipart_error::headers_too_large, multipart_error::no_name,
                 multipart_error::truncated, multipart_error::stopped})
    BOOST_TEST(!describe(e).empty());
}

BOOST_AUTO_TEST_CASE(content_type_gives_the_boundary) {
  std::string b;
  BOOST_TEST((read_form_type("multipart/form-data; boundary=abc123", b) == form_type::form_data));
  BOOST_TEST(b == "abc123");
  BOOST_TEST((read_form_type("Multipart/Form-Data;BOUNDARY=\"a b:c/d=e?\"; charset=utf-8", b) == form_type::form_data));
  BOOST_TEST(b == "a b:c/d=e?");
  BOOST_TEST((read_form_type(" multipart/form-data ; charset=x; boundary=" + std::string(70, 'z') + " ;", b)
              == form_type::form_data));
  BOOST_TEST(b == std::string(70, 'z'));
  for (std::string other : {"", "application/json", "multipart/mixed; boundary=x", "multipart/form-datax; boundary=x",
                            "text/plain"})
    BOOST_TEST((read_form_type(other, b) == form_type::not_form_data), other);
  for (std::string bad : std::vector<std::string>{"multipart/form-data", "multipart/form-data;", "multipart/form-data; boundary=",
                          "multipart/form-data; boundary=\"\"", "multipart/form-data; boundary=" + std::string(71, 'z'),
                          "multipart/form-data; boundary=\"ends with space \"", "multipart/form-data; boundary=a\rb",
                          "multipart/form-data; boundary=\"unclosed", "multipart/form-data; boundary=a;b",
                          "multipart/form-data; boundary=a\"b", "multipart/form-data; charset=utf-8"})
    BOOST_TEST((read_form_type(bad, b) == form_type::bad_boundary), bad);
}

BOOST_AUTO_TEST_SUITE_END()
