#include "schema/field_reader.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

#include <boost/json.hpp>

BOOST_AUTO_TEST_SUITE(schema_field_reader)

namespace {

namespace json = boost::json;
using namespace svc::schema;

json::object obj(std::string_view text) { return json::parse(text).as_object(); }

// The one failure `read` leaves on a fresh reader of `o` with `discipline`.
template <class Read>
api_error failure(const json::object& o, json_discipline discipline, Read read) {
  field_reader in{o, discipline};
  read(in);
  BOOST_REQUIRE(in.error().has_value());
  return *in.error();
}

constexpr auto lenient = json_discipline::lenient;
constexpr auto strict = json_discipline::strict;

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
  BOOST_TEST(!in.text("a", 0, 10).has_value());
  BOOST_TEST(!in.strings("a").has_value());
  BOOST_TEST(!in.string_map("a", {1, 1, 1}).has_value());
  BOOST_TEST(in.ok());
  BOOST_TEST(!in.integer("a", 0, 10, true).has_value());
  BOOST_REQUIRE(!in.ok());
  BOOST_TEST(in.error()->param == "a");
  BOOST_TEST(in.error()->message == "Invalid value for 'a': is required.");
}

BOOST_AUTO_TEST_CASE(strict_null_is_a_value_of_the_wrong_type) {
  auto o = obj(R"({"a": null})");
  field_reader in{o, strict};
  BOOST_TEST(in.get("a") != nullptr);
  BOOST_TEST(!in.text("missing", 0, 5).has_value());
  BOOST_TEST(in.ok());
  BOOST_TEST(failure(o, strict, [](auto& f) { f.integer("a", 0, 10); }).message
             == "Invalid value for 'a': must be an integer between 0 and 10.");
  BOOST_TEST(failure(o, strict, [](auto& f) { f.text("a", 0, 5); }).message
             == "Invalid value for 'a': must be a string of 0 to 5 characters.");
  BOOST_TEST(failure(o, strict, [](auto& f) { f.strings("a"); }).message
             == "Invalid value for 'a': must be an array of strings.");
  BOOST_TEST(failure(o, strict, [](auto& f) { f.text("missing", 1, 5, true); }).message
             == "Invalid value for 'missing': is required.");
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

BOOST_AUTO_TEST_CASE(integers_are_bounded_and_only_lenient_readers_take_integral_doubles) {
  auto o = obj(R"({"d": 1024.0, "big": 11, "flag": true, "u": 18446744073709551615})");
  field_reader in{o};
  BOOST_TEST(in.integer("d", 0, 2048).value() == 1024);
  BOOST_TEST(in.ok());
  BOOST_TEST(failure(o, strict, [](auto& f) { f.integer("d", 0, 2048); }).message
             == "Invalid value for 'd': must be an integer between 0 and 2048.");
  for (auto d : {lenient, strict}) {
    BOOST_TEST(failure(o, d, [](auto& f) { f.integer("big", 0, 10); }).param == "big");
    BOOST_TEST(failure(o, d, [](auto& f) { f.integer("flag", 0, 10); }).param == "flag");
    BOOST_TEST(failure(o, d, [](auto& f) { f.integer("u", 0, INT64_MAX); }).param == "u");
  }
}

BOOST_AUTO_TEST_CASE(only_names_the_first_unknown_key_in_body_order) {
  auto o = obj(R"({"a": 1, "zz": 2, "b": 3, "yy": 4})");
  field_reader in{o, "loras[3]"};
  in.only({"a", "b"});
  BOOST_REQUIRE(in.error().has_value());
  BOOST_TEST((in.error()->code == error_code::unknown_parameter));
  BOOST_TEST(in.error()->param == "loras[3].zz");
  BOOST_TEST(in.error()->message == "Unknown parameter 'loras[3].zz'.");
  field_reader none{o, strict};
  none.only({});
  BOOST_TEST(none.error()->param == "a");
  auto empty = obj("{}");
  field_reader nothing{empty, strict};
  nothing.only({});
  BOOST_TEST(nothing.ok());
}

BOOST_AUTO_TEST_CASE(a_hostile_key_is_cut_in_the_param) {
  std::string key(300, 'k');
  json::object o;
  o[key] = 1;
  for (auto d : {lenient, strict})
    BOOST_TEST(failure(o, d, [](auto& f) { f.only({"a"}); }).param == std::string(100, 'k'));
}

BOOST_AUTO_TEST_CASE(a_long_key_is_cut_at_a_character_leniently_and_at_100_bytes_strictly) {
  std::string key = std::string(99, 'k') + "\xc3\xa9" + "tail";
  json::object o;
  o[key] = 1;
  BOOST_TEST(failure(o, lenient, [](auto& f) { f.only({}); }).param == std::string(99, 'k'));
  BOOST_TEST(failure(o, strict, [](auto& f) { f.only({}); }).param == std::string(99, 'k') + "\xc3");
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

BOOST_AUTO_TEST_CASE(strict_number_bounds_are_shown_as_json_writes_them) {
  auto o = obj(R"({"n": 0, "ok": 5})");
  field_reader in{o, strict};
  BOOST_TEST(in.number("ok", 1, 1e12).value() == 5.0);
  BOOST_TEST(failure(o, strict, [](auto& f) { f.number("n", 1, 1e12); }).message
             == "Invalid value for 'n': must be a number between 1E0 and 1E12.");
  BOOST_TEST(failure(o, strict, [](auto& f) { f.number("missing", 1, 2, true); }).message
             == "Invalid value for 'missing': is required.");
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

BOOST_AUTO_TEST_CASE(strict_text_counts_bytes_with_one_message) {
  json::object o;
  o["two"] = "\xc3\xa9\xc3\xa9";
  o["empty"] = "";
  o["num"] = 1;
  field_reader in{o, strict};
  BOOST_TEST(in.text("two", 1, 4, true).value() == "\xc3\xa9\xc3\xa9");
  BOOST_TEST(in.text("empty", 0, 4).value() == "");
  BOOST_TEST(in.ok());
  auto expected = "Invalid value for 'two': must be a string of 1 to 3 characters.";
  BOOST_TEST(failure(o, strict, [](auto& f) { f.text("two", 1, 3, true); }).message == expected);
  BOOST_TEST(failure(o, strict, [](auto& f) { f.text("empty", 1, 4, true); }).message
             == "Invalid value for 'empty': must be a string of 1 to 4 characters.");
  BOOST_TEST(failure(o, strict, [](auto& f) { f.text("num", 0, 4); }).message
             == "Invalid value for 'num': must be a string of 0 to 4 characters.");
}

BOOST_AUTO_TEST_CASE(strings_are_an_array_of_strings) {
  auto o = obj(R"({"ok": ["a", "b"], "none": [], "mixed": ["a", 1], "word": "a"})");
  field_reader in{o};
  BOOST_TEST((in.strings("ok").value() == std::vector<std::string>{"a", "b"}));
  BOOST_TEST(in.strings("none").value().empty());
  BOOST_TEST(in.ok());
  for (auto name : {"mixed", "word"}) {
    auto e = failure(o, strict, [&](auto& f) { f.strings(name); });
    BOOST_TEST(e.param == name);
    BOOST_TEST(e.message == "Invalid value for '" + std::string{name} + "': must be an array of strings.");
  }
  BOOST_TEST(failure(o, lenient, [](auto& f) { f.strings("missing", true); }).message
             == "Invalid value for 'missing': is required.");
}

BOOST_AUTO_TEST_CASE(string_maps_name_the_object_or_the_bad_entry) {
  constexpr string_map_limits limits{2, 3, 4};
  auto o = obj(R"({"m": {"k": "v", "key": "four"}, "many": {"a": "", "b": "", "c": ""}, "long_key": {"four": "v"},
                   "empty_key": {"": "v"}, "long_value": {"k": "fives"}, "number": {"k": 1}, "list": ["k"]})");
  field_reader in{o};
  auto m = in.string_map("m", limits);
  BOOST_TEST(in.ok());
  BOOST_TEST(m.value().size() == 2u);
  BOOST_TEST(m.value().at("key") == "four");
  for (auto name : {"many", "list"})
    BOOST_TEST(failure(o, lenient, [&](auto& f) { f.string_map(name, limits); }).message
               == "Invalid value for '" + std::string{name} + "': must be an object of at most 2 string values.");
  for (auto name : {"long_key", "empty_key"})
    BOOST_TEST(failure(o, lenient, [&](auto& f) { f.string_map(name, limits); }).message
               == "Invalid value for '" + std::string{name} + "': keys must be 1 to 3 characters long.");
  for (auto name : {"long_value", "number"}) {
    auto e = failure(o, lenient, [&](auto& f) { f.string_map(name, limits); });
    BOOST_TEST(e.param == std::string{name} + ".k");
    BOOST_TEST(e.message == "Invalid value for '" + std::string{name} + ".k': must be a string of at most 4 characters.");
  }
  field_reader nested{o, "items[1]"};
  nested.string_map("number", limits);
  BOOST_TEST(nested.error()->param == "items[1].number.k");
}

BOOST_AUTO_TEST_CASE(fail_names_array_items_and_nested_fields) {
  auto o = obj("{}");
  field_reader top{o};
  top.fail("events[2]", "repeats an earlier item");
  BOOST_TEST(top.error()->param == "events[2]");
  field_reader inner{o, "loras[1]"};
  inner.fail("weight", "is wrong");
  BOOST_TEST(inner.error()->param == "loras[1].weight");
  BOOST_TEST(inner.error()->message == "Invalid value for 'loras[1].weight': is wrong.");
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

BOOST_AUTO_TEST_SUITE_END()
