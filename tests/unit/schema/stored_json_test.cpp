#include "schema/stored_json.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>

#include "core/described.hpp"
#include "tests/support/stored_text.hpp"

namespace svc::schema {

// A record of every member kind the stored form knows, with each per-member
// exception once.
enum class widget_colour : uint8_t { red, light_blue };
BOOST_DESCRIBE_ENUM(widget_colour, red, light_blue)
std::string_view to_string(widget_colour c) { return c == widget_colour::red ? "red" : "light-blue"; }

struct widget_part {
  std::string name;
  double weight = 0;
};
SVC_DESCRIBE(widget_part, (name, weight))

struct widget_header {
  std::string from;
  std::string to;
};
SVC_DESCRIBE(widget_header, (from, to))

struct widget {
  std::string id;
  int32_t count = 0;
  uint32_t seed = 0;
  uint64_t bytes = 0;
  bool active = false;
  widget_colour tint = widget_colour::red;
  core::time_point at;
  std::optional<core::time_point> until;
  std::vector<widget_part> parts;
  std::map<std::string, std::string> labels;
  std::optional<widget_part> spare;
  widget_header head;
  std::string note;
};
SVC_DESCRIBE(widget, (id, count, seed, bytes, active, tint, at, until, parts, labels, spare, head, note))
SVC_STORED_KEY(widget, tint, "colour")
SVC_STORED_INLINE(widget, head)
SVC_STORED_SINCE(widget, note)

bool valid(const widget& w) { return w.count >= 0; }

} // namespace svc::schema

namespace {

namespace json = boost::json;
using namespace svc::schema;


widget full() {
  widget w{"w_1", 7, 4294967295u, 123456789012, true, widget_colour::light_blue,
           svc::core::from_unix_ms(1763720130123), svc::core::from_unix_ms(-2), {{"a", 0.5}, {"b", 2}},
           {{"k", "v"}}, widget_part{"s", 1}, {"x@y", "z@w"}, "n"};
  return w;
}

json::object stored_full() { return encode_stored(full()).as_object(); }

// Decodes `o` after `change` was applied to it.
template <class Change>
bool decodes_after(Change change) {
  auto o = stored_full();
  change(o);
  widget w;
  return decode_stored(json::value(o), w);
}

} // namespace

BOOST_AUTO_TEST_SUITE(schema_stored_json)

BOOST_AUTO_TEST_CASE(members_are_stored_in_described_order_with_their_stored_keys) {
  BOOST_TEST(json::serialize(encode_stored(full()))
             == R"({"id":"w_1","count":7,"seed":4294967295,"bytes":123456789012,"active":true,)"
                R"("colour":"light-blue","at":1763720130123,"until":-2,)"
                R"("parts":[{"name":"a","weight":5E-1},{"name":"b","weight":2E0}],"labels":{"k":"v"},)"
                R"("spare":{"name":"s","weight":1E0},"from":"x@y","to":"z@w","note":"n"})");
  widget empty;
  auto o = encode_stored(empty).as_object();
  BOOST_TEST(o.at("until").is_null());
  BOOST_TEST(o.at("spare").is_null());
  BOOST_TEST(o.at("colour") == "red");
}

BOOST_AUTO_TEST_CASE(what_is_stored_reads_back) {
  widget w;
  BOOST_TEST_REQUIRE(decode_stored(svc::test::through_text(encode_stored(full())), w));
  BOOST_TEST(json::serialize(encode_stored(w)) == json::serialize(encode_stored(full())));
  widget empty, back;
  BOOST_TEST_REQUIRE(decode_stored(encode_stored(empty), back));
  BOOST_TEST(!back.until.has_value());
  BOOST_TEST(!back.spare.has_value());
}

BOOST_AUTO_TEST_CASE(a_member_added_later_may_be_absent_or_null) {
  BOOST_TEST(decodes_after([](json::object& o) { o.erase("note"); }));
  BOOST_TEST(decodes_after([](json::object& o) { o["note"] = nullptr; }));
  BOOST_TEST(!decodes_after([](json::object& o) { o["note"] = 1; }));
}

BOOST_AUTO_TEST_CASE(every_other_member_is_required_optional_ones_as_null) {
  for (auto key : {"id", "count", "seed", "bytes", "active", "colour", "at", "until", "parts", "labels", "spare",
                   "from", "to"})
    BOOST_TEST(!decodes_after([&](json::object& o) { o.erase(key); }), key);
  BOOST_TEST(!decodes_after([](json::object& o) { o.erase("tint"); o["tint"] = o["colour"]; o.erase("colour"); }));
  BOOST_TEST(decodes_after([](json::object& o) { o["until"] = nullptr; o["spare"] = nullptr; }));
}

BOOST_AUTO_TEST_CASE(mistyped_members_are_rejected) {
  BOOST_TEST(!decodes_after([](json::object& o) { o["id"] = 1; }));
  BOOST_TEST(!decodes_after([](json::object& o) { o["count"] = "7"; }));
  BOOST_TEST(!decodes_after([](json::object& o) { o["count"] = 7.0; }));
  BOOST_TEST(!decodes_after([](json::object& o) { o["active"] = 1; }));
  BOOST_TEST(!decodes_after([](json::object& o) { o["at"] = 1.5; }));
  BOOST_TEST(!decodes_after([](json::object& o) { o["parts"] = json::object{}; }));
  BOOST_TEST(!decodes_after([](json::object& o) { o["parts"].as_array().emplace_back(1); }));
  BOOST_TEST(!decodes_after([](json::object& o) { o["labels"].as_object()["n"] = 1; }));
  BOOST_TEST(!decodes_after([](json::object& o) { o["spare"] = "s"; }));
  BOOST_TEST(!decodes_after([](json::object& o) { o["parts"].as_array()[0].as_object().erase("weight"); }));
  widget w;
  BOOST_TEST(!decode_stored(json::value(json::array{}), w));
  BOOST_TEST(!decode_stored(json::value(nullptr), w));
}

BOOST_AUTO_TEST_CASE(integers_must_fit_their_member) {
  BOOST_TEST(!decodes_after([](json::object& o) { o["count"] = int64_t{1} << 31; }));
  BOOST_TEST(decodes_after([](json::object& o) { o["count"] = (int64_t{1} << 31) - 1; }));
  BOOST_TEST(!decodes_after([](json::object& o) { o["seed"] = int64_t{1} << 32; }));
  BOOST_TEST(!decodes_after([](json::object& o) { o["seed"] = -1; }));
  BOOST_TEST(!decodes_after([](json::object& o) { o["bytes"] = -1; }));
  BOOST_TEST(!decodes_after([](json::object& o) { o["bytes"] = uint64_t{1} << 63; }));
  BOOST_TEST(!decodes_after([](json::object& o) { o["at"] = uint64_t{1} << 63; }));
}

BOOST_AUTO_TEST_CASE(doubles_must_be_finite_and_integers_count) {
  widget w;
  BOOST_TEST(!decode_stored(json::parse(R"(
    {"id":"w","count":1,"seed":0,"bytes":0,"active":true,"colour":"red","at":0,"until":null,
     "parts":[{"name":"a","weight":1e400}],"labels":{},"spare":null,"from":"","to":""})"), w));
  BOOST_TEST_REQUIRE(decode_stored(json::parse(R"(
    {"id":"w","count":1,"seed":0,"bytes":0,"active":true,"colour":"red","at":0,"until":null,
     "parts":[{"name":"a","weight":3}],"labels":{},"spare":null,"from":"","to":""})"), w));
  BOOST_TEST(w.parts.at(0).weight == 3.0);
}

BOOST_AUTO_TEST_CASE(enums_are_read_by_their_wire_name_only) {
  BOOST_TEST(!decodes_after([](json::object& o) { o["colour"] = "light_blue"; }));
  BOOST_TEST(!decodes_after([](json::object& o) { o["colour"] = "blue"; }));
  BOOST_TEST(!decodes_after([](json::object& o) { o["colour"] = 1; }));
  widget w;
  auto o = stored_full();
  o["colour"] = "red";
  BOOST_TEST_REQUIRE(decode_stored(json::value(o), w));
  BOOST_TEST((w.tint == widget_colour::red));
}

BOOST_AUTO_TEST_CASE(the_records_own_check_applies) {
  BOOST_TEST(!decodes_after([](json::object& o) { o["count"] = -1; }));
}

BOOST_AUTO_TEST_SUITE_END()
