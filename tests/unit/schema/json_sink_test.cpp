#include "schema/json_sink.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "tests/support/json_identical.hpp"

BOOST_AUTO_TEST_SUITE(schema_json_sink)

namespace {

namespace json = boost::json;
using namespace svc::schema;

// Writes the same document to both sinks: every kind of value, nested, with
// empty containers and keys that need escaping.
template <class Sink>
void document(Sink& w, const std::string& text, const std::vector<double>& numbers) {
  w.begin_object();
  w.key("text").string(text);
  w.key(text).string("keyed by the text");
  w.key("empty_object").begin_object().end_object();
  w.key("empty_array").begin_array().end_array();
  w.key("integers").begin_array();
  for (int64_t v : {int64_t{0}, int64_t{-1}, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()})
    w.integer(v);
  w.unsigned_integer(std::numeric_limits<uint64_t>::max());
  w.end_array();
  w.key("numbers").begin_array();
  for (double d : numbers)
    w.number(d);
  w.end_array();
  w.key("nested").begin_array().begin_object().key("a").null().key("b").boolean(true).end_object();
  w.begin_array().boolean(false).end_array().end_array();
  w.end_object();
}

} // namespace

BOOST_AUTO_TEST_CASE(text_equals_serialize_of_the_tree_for_every_byte_and_number) {
  std::string every_byte;
  for (int c = 0; c < 256; ++c)
    every_byte.push_back(static_cast<char>(c));
  std::vector<double> numbers{0.0,   -0.0,  1.0,    50.0,    0.5,      -0.25,   0.1,     1.0 / 3.0, 1e-7,
                              2.2e85, -1e300, 8.9e15, 9.1e15, 123.456, 1e21, 5e-324, std::numeric_limits<double>::max()};
  const auto ascii = every_byte.substr(0, 128); // every control character, and UTF-8
  for (auto& text : {std::string{}, std::string{"plain"}, ascii, every_byte, std::string{"é 水 🌊 \xff\xfe"}}) {
    std::string out;
    json_text t{out};
    document(t, text, numbers);
    json_tree tree;
    document(tree, text, numbers);
    auto v = tree.release();
    BOOST_TEST(out == json::serialize(v));
    if (text == every_byte || text.find('\xff') != std::string::npos)
      continue; // not UTF-8: Boost.JSON writes it as it is, but will not read it back
    // And the text reads back as the same document, every escape undone.
    json::error_code ec;
    auto back = json::parse(out, ec);
    BOOST_REQUIRE_MESSAGE(!ec, ec.message());
    BOOST_TEST(svc::test::json_reads_back(back, v));
    BOOST_TEST(back.as_object().at("text").as_string() == text);
  }
}

BOOST_AUTO_TEST_CASE(numbers_show_as_views_show_them) {
  std::string out;
  json_text t{out};
  t.begin_array().number(50).number(0.5).number(-3).number(2.2e85).end_array();
  BOOST_TEST(out == "[50,5E-1,-3,2.2E85]");
  json_tree tree;
  tree.begin_array().number(50).number(0.5).end_array();
  auto v = tree.release();
  BOOST_TEST(v.as_array()[0].is_int64());
  BOOST_TEST(v.as_array()[1].is_double());
}

BOOST_AUTO_TEST_CASE(text_is_appended) {
  std::string out = "prefix:";
  json_text t{out};
  t.string("x");
  BOOST_TEST(out == "prefix:\"x\"");
}

BOOST_AUTO_TEST_SUITE_END()
