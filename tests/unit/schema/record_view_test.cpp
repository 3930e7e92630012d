#include "schema/record_view.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "core/described.hpp"
#include "schema/json_sink.hpp"

// A record of the test's own that uses every marker of view_field.hpp and
// every type rule of record_view.hpp.
namespace svc::schema {

enum class shade : uint8_t { light, dark };
std::string_view to_string(shade s) { return s == shade::light ? "light" : "dark"; }

struct sample_part {
  std::string label;
  double weight = 0;
};
SVC_DESCRIBE(sample_part, (label, weight))
SVC_VIEW_KEY(sample_part, label, "name")

std::string hashed(const std::string& code) { return "#" + code; }

struct sample_record {
  std::string owner; // first in the description, hidden
  std::string id;
  shade tint = shade::light;
  std::string code;
  int64_t low = 0;
  int64_t high = 0;
  bool big = false;
  int size = 0;
  std::string token;
  std::vector<sample_part> parts;
  std::map<std::string, std::string> tags;
  std::optional<core::time_point> seen_at;
  core::time_point created_at;
  uint64_t count = 0;
};
SVC_DESCRIBE(sample_record, (owner, id, tint, code, low, high, big, size, token, parts, tags, seen_at, created_at, count))
SVC_VIEW_OBJECT(sample_record, "sample")
SVC_VIEW_HIDDEN(sample_record, owner)
SVC_VIEW_KEY(sample_record, tint, "shade")
SVC_VIEW_FORMAT(sample_record, code, hashed)
SVC_VIEW_IN(sample_record, low, "range")
SVC_VIEW_IN(sample_record, high, "range")
SVC_VIEW_KEY(sample_record, high, "top") // two markers on one member
SVC_VIEW_WHEN(sample_record, size, is_big)
SVC_VIEW_OWN(sample_record, token)
SVC_VIEW_ORDER(sample_record, (id, count, tint, code, low, high, big, size, token, parts, tags, seen_at, created_at))

// After its marker: SVC_VIEW_WHEN finds it by argument-dependent lookup.
bool is_big(const sample_record& r) { return r.big; }

// No id, no order list, no markers but the object.
struct sample_tally {
  int64_t total = 0;
  double share = 0;
};
SVC_DESCRIBE(sample_tally, (total, share))
SVC_VIEW_OBJECT(sample_tally, "tally")

} // namespace svc::schema

namespace {

namespace json = boost::json;
using namespace svc::schema;

// Writes the own member `token` as the context says.
struct token_context {
  bool reveal;
  template <class Sink>
  void write(Sink& w, const sample_record& r, member_tag<&sample_record::token>) const {
    w.key("token_preview").string(r.token.substr(0, 2));
    w.key("token");
    if (reveal)
      w.string(r.token);
    else
      w.null();
  }
};

sample_record full_sample() {
  return {"team_secret", "smp_1", shade::dark, "ab", -3, 7, true, 12, "tk_value", {{"left", 0.5}, {"right", 2}},
          {{"b", "2"}, {"a", "1"}}, {}, svc::core::from_unix_ms(1700000000123), 18446744073709551615u};
}

// The view as text, checked against the tree sink first: both must agree.
template <class T, class Context = no_view_context>
std::string view_text(const T& r, const Context& context = {}) {
  std::string out;
  json_text text{out};
  write_view(text, r, context);
  json_tree tree;
  write_view(tree, r, context);
  BOOST_TEST(out == json::serialize(tree.release()));
  return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(schema_record_view)

BOOST_AUTO_TEST_CASE(every_marker_shapes_the_view) {
  auto text = view_text(full_sample(), token_context{false});
  BOOST_TEST(text
             == R"({"id":"smp_1","object":"sample","count":18446744073709551615,"shade":"dark","code":"#ab",)"
                R"("range":{"low":-3,"top":7},"big":true,"size":12,"token_preview":"tk","token":null,)"
                R"("parts":[{"name":"left","weight":5E-1},{"name":"right","weight":2}],"tags":{"a":"1","b":"2"},)"
                R"("seen_at":null,"created_at":"2023-11-14T22:13:20.123Z"})");
}

BOOST_AUTO_TEST_CASE(the_context_writes_own_members) {
  auto text = view_text(full_sample(), token_context{true});
  BOOST_TEST(text.find(R"("token_preview":"tk","token":"tk_value","parts")") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_member_shown_when_is_left_out_otherwise) {
  auto r = full_sample();
  r.big = false;
  r.seen_at = svc::core::from_unix_ms(0);
  auto text = view_text(r, token_context{false});
  BOOST_TEST(text.find(R"("big":false,"token_preview")") != std::string::npos);
  BOOST_TEST(text.find("size") == std::string::npos);
  BOOST_TEST(text.find(R"("seen_at":"1970-01-01T00:00:00.000Z")") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(hidden_members_never_show) {
  auto text = view_text(full_sample(), token_context{true});
  BOOST_TEST(text.find("owner") == std::string::npos);
  BOOST_TEST(text.find("team_secret") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(without_an_id_the_object_leads_and_the_description_orders) {
  BOOST_TEST(view_text(sample_tally{5, 0.25}) == R"({"object":"tally","total":5,"share":2.5E-1})");
}

BOOST_AUTO_TEST_CASE(members_follow_what_a_view_opened) {
  std::string out;
  json_text text{out};
  text.begin_object();
  write_view_members(text, sample_tally{1, 1.0});
  text.key("extra").boolean(true);
  text.end_object();
  BOOST_TEST(out == R"({"object":"tally","total":1,"share":1,"extra":true})");
}

BOOST_AUTO_TEST_SUITE_END()
