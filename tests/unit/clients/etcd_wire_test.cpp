#include "clients/etcd_wire.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <string_view>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

BOOST_AUTO_TEST_SUITE(clients_etcd_wire)

namespace {

namespace json = boost::json;
namespace wire = svc::clients::etcd_wire;
using svc::clients::etcd_error;
using svc::clients::etcd_event_kind;
using kind = etcd_error::kind;

json::object object(std::string_view text) {
  return json::parse(text).as_object();
}

template <class Call>
int failure_of(Call call) {
  try {
    call();
  } catch (const etcd_error& e) {
    return static_cast<int>(e.which());
  }
  return -1;
}

int as_int(kind k) {
  return static_cast<int>(k);
}

std::vector<std::string> texts(const std::vector<json::object>& objects) {
  std::vector<std::string> out;
  for (auto& o : objects)
    out.push_back(json::serialize(o));
  return out;
}

} // namespace

BOOST_AUTO_TEST_CASE(prefix_end_is_the_first_key_after_the_prefix) {
  BOOST_TEST(wire::prefix_end("/svc/nodes/") == "/svc/nodes0");
  BOOST_TEST(wire::prefix_end("a\xff") == "b");
  BOOST_TEST(wire::prefix_end("\xff\xff") == std::string(1, '\0'));
  BOOST_TEST(wire::prefix_end("") == std::string(1, '\0'));
}

BOOST_AUTO_TEST_CASE(int64_fields_come_as_strings_or_numbers_and_absent_is_zero) {
  auto o = object(R"({"a":"9223372036854775807","b":-3,"c":"12x","d":"","e":"9223372036854775808","f":true})");
  BOOST_TEST(wire::int_field(o, "a") == 9223372036854775807);
  BOOST_TEST(wire::int_field(o, "b") == -3);
  BOOST_TEST(wire::int_field(o, "absent") == 0);
  for (auto name : {"c", "d", "e", "f"})
    BOOST_TEST(failure_of([&] { wire::int_field(o, name); }) == as_int(kind::rejected), name);
}

BOOST_AUTO_TEST_CASE(a_range_answer_decodes_keys_values_and_revisions) {
  auto range = wire::range_of(object(R"({"header":{"revision":"9"},"kvs":[
      {"key":"L2E=","value":"eA==","create_revision":"3","mod_revision":"8","lease":"77"},{"key":"L2I="}]})"));
  BOOST_TEST(range.revision == 9);
  BOOST_TEST_REQUIRE(range.kvs.size() == 2u);
  BOOST_TEST(range.kvs[0].key == "/a");
  BOOST_TEST(range.kvs[0].value == "x");
  BOOST_TEST(range.kvs[0].create_revision == 3);
  BOOST_TEST(range.kvs[0].mod_revision == 8);
  BOOST_TEST(range.kvs[0].lease == 77);
  BOOST_TEST(range.kvs[1].value == "");
  BOOST_TEST(wire::range_of(object(R"({"header":{}})")).kvs.empty());
  BOOST_TEST(failure_of([] { wire::range_of(object(R"({"kvs":[]})")); }) == as_int(kind::rejected));
  BOOST_TEST(failure_of([] { wire::range_of(object(R"({"header":{},"kvs":[{"key":"%%%"}]})")); }) ==
             as_int(kind::rejected));
}

BOOST_AUTO_TEST_CASE(watch_messages_give_events_or_the_reason_the_watch_ended) {
  auto events = wire::watch_events(object(R"({"events":[{"kv":{"key":"L2E="}},{"type":"DELETE","kv":{"key":"L2E="}}]})"));
  BOOST_TEST_REQUIRE(events.size() == 2u);
  BOOST_TEST((events[0].kind == etcd_event_kind::put));
  BOOST_TEST((events[1].kind == etcd_event_kind::erase));
  BOOST_TEST(wire::watch_events(object(R"({"created":true})")).empty());
  BOOST_TEST(failure_of([] { wire::watch_events(object(R"({"canceled":true,"compact_revision":"4"})")); }) ==
             as_int(kind::compacted));
  BOOST_TEST(failure_of([] { wire::watch_events(object(R"({"canceled":true,"cancel_reason":"x"})")); }) ==
             as_int(kind::rejected));
  BOOST_TEST(failure_of([] { wire::watch_events(object(R"({"events":[{"type":"MOVE","kv":{}}]})")); }) ==
             as_int(kind::rejected));
}

BOOST_AUTO_TEST_CASE(etcd_errors_map_by_their_grpc_code) {
  auto kind_of = [](unsigned status, std::string_view body) {
    return as_int(wire::error_of(status, body, "etcd test").which());
  };
  BOOST_TEST(kind_of(404, R"({"error":"etcdserver: requested lease not found","code":5})") ==
             as_int(kind::lease_expired));
  BOOST_TEST(kind_of(503, R"({"message":"etcdserver: no leader","code":14})") == as_int(kind::unreachable));
  BOOST_TEST(kind_of(504, R"({"message":"etcdserver: request timed out","code":4})") == as_int(kind::timeout));
  BOOST_TEST(kind_of(400, R"({"message":"mvcc: required revision has been compacted","code":11})") ==
             as_int(kind::compacted));
  BOOST_TEST(kind_of(400, R"({"message":"bad","code":3})") == as_int(kind::rejected));
  BOOST_TEST(kind_of(502, "<html>proxy</html>") == as_int(kind::rejected));
  BOOST_TEST(failure_of([] { wire::result_of(object(R"({"error":{"grpc_code":5,"message":"gone"}})")); }) ==
             as_int(kind::lease_expired));
  BOOST_TEST(failure_of([] { wire::result_of(object(R"({"header":{}})")); }) == as_int(kind::rejected));
}

BOOST_AUTO_TEST_CASE(the_splitter_finds_each_message_wherever_the_stream_is_cut) {
  std::string stream = "{\"result\":{\"a\":[1,{\"b\":\"}\"}]}}\n{\"result\":{}}\r\n  {\"x\":1}";
  std::vector<std::string> expected{R"({"result":{"a":[1,{"b":"}"}]}})", R"({"result":{}})", R"({"x":1})"};
  for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
    wire::message_splitter splitter{1024};
    auto got = texts(splitter.feed(std::string_view{stream}.substr(0, cut)));
    auto rest = texts(splitter.feed(std::string_view{stream}.substr(cut)));
    got.insert(got.end(), rest.begin(), rest.end());
    BOOST_TEST(got == expected, "cut at " << cut);
  }
  wire::message_splitter bytewise{1024};
  std::vector<std::string> got;
  for (char c : stream) {
    auto more = texts(bytewise.feed(std::string_view{&c, 1}));
    got.insert(got.end(), more.begin(), more.end());
  }
  BOOST_TEST(got == expected);
}

BOOST_AUTO_TEST_CASE(the_splitter_refuses_bad_json_non_objects_and_oversized_messages) {
  BOOST_TEST(failure_of([] { wire::message_splitter{1024}.feed("{\"a\":}"); }) == as_int(kind::rejected));
  BOOST_TEST(failure_of([] { wire::message_splitter{1024}.feed("[1] "); }) == as_int(kind::rejected));
  wire::message_splitter small{16};
  BOOST_TEST(small.feed("{\"a\":\"12345\"}").size() == 1u); // 13 bytes: within the limit
  BOOST_TEST(failure_of([&] {
               small.feed("{\"a\":\"1234567");
               small.feed("89\"}");
             }) == as_int(kind::rejected));
}

BOOST_AUTO_TEST_SUITE_END()
