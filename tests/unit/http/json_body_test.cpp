#include "http/json_body.hpp"

#include <boost/test/unit_test.hpp>

#include <boost/json.hpp>

#include <optional>
#include <string>

#include "schema/checked.hpp"
#include "services_fixture.hpp"

BOOST_AUTO_TEST_SUITE(http_json_body)

// read_fields and read_valid_body over real request contexts: what a handler
// gets back, and the one answer given when it gets nothing.

namespace {

using namespace svc::http;
namespace bhttp = boost::beast::http;

struct body_fixture : testing::services_fixture {
  context_ptr post(std::string body) {
    std::vector<std::pair<std::string, std::string>> fields;
    if (!body.empty())
      fields.emplace_back("Content-Type", "application/json");
    return request(bhttp::verb::post, "/admin/things", fields, std::move(body));
  }

  std::string answer(std::size_t i = 0) { return answers->at(i).head + "\r\n" + answers->at(i).body; }
};

// A name of 1..8 bytes and an optional count.
struct thing {
  std::string name;
  int64_t count = 0;
};

thing read_thing(svc::schema::field_reader& f) {
  thing t;
  t.name = f.text("name", 1, 8, true).value_or("");
  t.count = f.integer("count", 0, 10).value_or(0);
  if (t.name == "bad")
    f.fail("name", "is not a name");
  return t;
}

// Accepts objects with a string `word`.
svc::schema::checked<std::string> validate_word(const boost::json::object& body) {
  if (auto* w = body.if_contains("word"); w && w->is_string())
    return std::string{w->as_string()};
  return svc::schema::make_api_error(svc::schema::error_code::invalid_parameter, {{"detail", "must be a string"}},
                                     "word");
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(json_body, body_fixture)

BOOST_AUTO_TEST_CASE(read_fields_gives_what_the_reader_read_and_answers_nothing) {
  auto t = read_fields(post(R"({"name":"lamp","count":3})"), {"name", "count"}, read_thing);
  BOOST_REQUIRE(t.has_value());
  BOOST_TEST(t->name == "lamp");
  BOOST_TEST(t->count == 3);
  BOOST_TEST(answers->empty());
}

BOOST_AUTO_TEST_CASE(read_fields_answers_the_readers_first_failure) {
  BOOST_TEST(!read_fields(post(R"({"name":"lamp","count":11})"), {"name", "count"}, read_thing));
  BOOST_TEST(!read_fields(post(R"({"name":"bad"})"), {"name", "count"}, read_thing));
  BOOST_REQUIRE_EQUAL(answers->size(), 2u);
  BOOST_TEST(answer(0).rfind("HTTP/1.1 400", 0) == 0u, answer(0));
  BOOST_TEST(answer(0).find(R"("param":"count")") != std::string::npos, answer(0));
  BOOST_TEST(answer(1).find(R"("param":"name")") != std::string::npos, answer(1));
  BOOST_TEST(answer(1).find("is not a name") != std::string::npos, answer(1));
}

BOOST_AUTO_TEST_CASE(read_fields_reads_strictly_and_refuses_other_fields) {
  // Strict: null is a value of the wrong type, not "not given".
  BOOST_TEST(!read_fields(post(R"({"name":"lamp","count":null})"), {"name", "count"}, read_thing));
  BOOST_TEST(!read_fields(post(R"({"name":"lamp","colour":"red"})"), {"name", "count"}, read_thing));
  BOOST_REQUIRE_EQUAL(answers->size(), 2u);
  BOOST_TEST(answer(0).find("\"invalid_parameter\"") != std::string::npos, answer(0));
  BOOST_TEST(answer(1).find("\"unknown_parameter\"") != std::string::npos, answer(1));
  BOOST_TEST(answer(1).find(R"("param":"colour")") != std::string::npos, answer(1));
}

BOOST_AUTO_TEST_CASE(read_fields_takes_no_body_as_empty_only_where_allowed) {
  auto count = [](svc::schema::field_reader& f) { return f.integer("count", 0, 10).value_or(7); };
  auto allowed = read_fields(post(""), {"count"}, count, empty_body::allowed);
  BOOST_REQUIRE(allowed.has_value());
  BOOST_TEST(*allowed == 7);
  BOOST_TEST(answers->empty());
  BOOST_TEST(!read_fields(post(""), {"count"}, count));
  BOOST_REQUIRE_EQUAL(answers->size(), 1u);
  BOOST_TEST(answer().rfind("HTTP/1.1 4", 0) == 0u, answer());
}

BOOST_AUTO_TEST_CASE(read_valid_body_keeps_the_body_and_the_request) {
  auto valid = read_valid_body(post(R"({"word":"fox", "n":1})"), validate_word);
  BOOST_REQUIRE(valid.has_value());
  BOOST_TEST(valid->request == "fox");
  BOOST_TEST(boost::json::serialize(valid->json) == R"({"word":"fox","n":1})");
  BOOST_TEST(answers->empty());
}

BOOST_AUTO_TEST_CASE(read_valid_body_answers_the_validators_error_or_the_bodys) {
  BOOST_TEST(!read_valid_body(post(R"({"word":1})"), validate_word));
  BOOST_TEST(!read_valid_body(post("[1]"), validate_word));
  BOOST_REQUIRE_EQUAL(answers->size(), 2u);
  BOOST_TEST(answer(0).find(R"("param":"word")") != std::string::npos, answer(0));
  BOOST_TEST(answer(1).find("\"invalid_body\"") != std::string::npos, answer(1));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
