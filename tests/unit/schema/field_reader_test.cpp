#include "schema/field_reader.hpp"

#define BOOST_TEST_MODULE schema_field_reader
#include <boost/test/unit_test.hpp>

#include <string>

#include <boost/json.hpp>

namespace {

namespace json = boost::json;
using namespace svc::schema;

json::object obj(std::string_view text) { return json::parse(text).as_object(); }

} // namespace

BOOST_AUTO_TEST_CASE(integral_value_takes_integers_and_integral_doubles_only) {
  BOOST_TEST(integral_value(json::value(7)).value() == 7);
  BOOST_TEST(integral_value(json::value(-7)).value() == -7);
  BOOST_TEST(integral_value(json::value(uint64_t{42})).value() == 42);
  BOOST_TEST(integral_value(json::value(1024.0)).value() == 1024);
  BOOST_TEST(integral_value(json::value(-0.0)).value() == 0);
  BOOST_TEST(!integral_value(json::value(1024.5)).has_value());
  BOOST_TEST(!integral_value(json::value(1e300)).has_value());
  BOOST_TEST(!integral_value(json::value(UINT64_MAX)).has_value());
  BOOST_TEST(!integral_value(json::value(true)).has_value());
  BOOST_TEST(!integral_value(json::value("7")).has_value());
  BOOST_TEST(!integral_value(json::value(nullptr)).has_value());
}

BOOST_AUTO_TEST_CASE(null_and_absent_are_not_given) {
  auto o = obj(R"({"a": null, "b": 3})");
  field_reader in{o};
  BOOST_TEST(in.get("a") == nullptr);
  BOOST_TEST(in.get("missing") == nullptr);
  BOOST_TEST(in.get("b") != nullptr);
  BOOST_TEST(!in.integer("a", 0, 10).has_value());
  BOOST_TEST(in.ok());
  BOOST_TEST(!in.integer("a", 0, 10, true).has_value());
  BOOST_REQUIRE(!in.ok());
  BOOST_TEST(in.error()->param == "a");
  BOOST_TEST(in.error()->message == "Invalid value for 'a': is required.");
}

BOOST_AUTO_TEST_CASE(first_failure_is_kept_and_later_reads_are_no_ops) {
  auto o = obj(R"({"a": "x", "b": 99, "c": 5})");
  field_reader in{o};
  BOOST_TEST(!in.integer("a", 0, 10).has_value());
  BOOST_TEST(!in.integer("b", 0, 10).has_value());
  BOOST_TEST(!in.integer("c", 0, 10).has_value()); // valid, but reading stopped
  BOOST_REQUIRE(in.error().has_value());
  BOOST_TEST(in.error()->param == "a");
  BOOST_TEST((in.error()->code == error_code::invalid_parameter));
  BOOST_TEST(in.error()->message == "Invalid value for 'a': must be an integer between 0 and 10.");
}

BOOST_AUTO_TEST_CASE(only_names_the_first_unknown_key_in_body_order) {
  auto o = obj(R"({"a": 1, "zz": 2, "b": 3, "yy": 4})");
  field_reader in{o, "loras[3]"};
  in.only({"a", "b"});
  BOOST_REQUIRE(in.error().has_value());
  BOOST_TEST((in.error()->code == error_code::unknown_parameter));
  BOOST_TEST(in.error()->param == "loras[3].zz");
  BOOST_TEST(in.error()->message == "Unknown parameter 'loras[3].zz'.");
}

BOOST_AUTO_TEST_CASE(a_hostile_key_is_cut_in_the_param) {
  std::string key(300, 'k');
  json::object o;
  o[key] = 1;
  field_reader in{o};
  in.only({"a"});
  BOOST_REQUIRE(in.error().has_value());
  BOOST_TEST(in.error()->param == std::string(100, 'k'));
}

BOOST_AUTO_TEST_CASE(number_bounds_are_inclusive_and_shown_readably) {
  auto o = obj(R"({"lo": -2.0, "hi": 2, "over": 2.0000001, "flag": false})");
  field_reader in{o};
  BOOST_TEST(in.number("lo", -2.0, 2.0).value() == -2.0);
  BOOST_TEST(in.number("hi", -2.0, 2.0).value() == 2.0);
  BOOST_TEST(in.ok());
  BOOST_TEST(!in.number("over", -2.0, 2.0).has_value());
  BOOST_TEST(in.error()->message == "Invalid value for 'over': must be a number between -2.0 and 2.0.");
  field_reader flags{o};
  BOOST_TEST(!flags.number("flag", -2.0, 2.0).has_value());
  BOOST_TEST(flags.error()->param == "flag");
}

BOOST_AUTO_TEST_CASE(text_counts_code_points_and_rejects_bad_utf8) {
  json::object o;
  o["two"] = "\xc3\xa9\xc3\xa9";
  o["bad"] = json::string("a\xff");
  o["num"] = 1;
  field_reader in{o};
  BOOST_TEST(in.text("two", 1, 2).value() == "\xc3\xa9\xc3\xa9");
  BOOST_TEST(in.ok());
  field_reader too_long{o};
  BOOST_TEST(!too_long.text("two", 1, 1).has_value());
  BOOST_TEST(too_long.error()->message == "Invalid value for 'two': must be 1 to 1 characters long.");
  field_reader bad{o};
  BOOST_TEST(!bad.text("bad", 0, 10).has_value());
  BOOST_TEST(bad.error()->message == "Invalid value for 'bad': must be valid UTF-8.");
  field_reader num{o};
  BOOST_TEST(!num.text("num", 0, 10).has_value());
  BOOST_TEST(num.error()->message == "Invalid value for 'num': must be a string.");
}

BOOST_AUTO_TEST_CASE(merge_keeps_the_outer_failure_first) {
  auto o = obj(R"({"x": "s"})");
  field_reader outer{o};
  field_reader inner{o, "loras[0]"};
  inner.integer("x", 0, 1);
  outer.merge(inner);
  BOOST_REQUIRE(outer.error().has_value());
  BOOST_TEST(outer.error()->param == "loras[0].x");

  field_reader first{o};
  first.fail("earlier", "broken");
  first.merge(inner);
  BOOST_TEST(first.error()->param == "earlier");
}
