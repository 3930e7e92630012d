// How a request crosses to its shard's owner and back (node_actor's
// conversions), and what a node keeps in etcd (etcd_values).
#include <boost/test/unit_test.hpp>

#include "core/ids.hpp"
#include "core/shard.hpp"
#include "http/client_address.hpp"
#include "cluster/etcd_values.hpp"
#include "cluster/node_actor.hpp"
#include "tests/support/routed_requests.hpp"

BOOST_AUTO_TEST_SUITE(cluster_forwarded_request)

using namespace svc;
namespace bhttp = boost::beast::http;

using svc::test::key_on;

http::http_request make(bhttp::verb method, std::string target, std::string body = {}) {
  return svc::test::make_request(method, std::move(target), std::move(body));
}

BOOST_AUTO_TEST_CASE(a_forwarded_request_is_the_request_again_on_the_owner) {
  auto r = make(bhttp::verb::post, "/v1/images?x=1", R"({"prompt":"p"})");
  r.set("X-Api-Key", key_on(1));
  r.set("Idempotency-Key", "abc");
  r.insert("X-Repeated", "one");
  r.insert("X-Repeated", "two");
  r.prepare_payload();
  http::peer_info peer;
  peer.ip = boost::asio::ip::make_address("127.0.0.9");
  peer.address = "127.0.0.9";
  auto f = cluster::to_forwarded_request(r, peer, "req_01KAK3S0ZV8Q6N4R2T0W9X7Y5B", false);
  auto back = cluster::to_http_request(f);
  BOOST_TEST_REQUIRE(back.has_value());
  BOOST_TEST(back->method_string() == "POST");
  BOOST_TEST(back->target() == "/v1/images?x=1");
  BOOST_TEST(back->body() == r.body());
  BOOST_TEST(back->at("Idempotency-Key") == "abc");
  BOOST_TEST(back->count("X-Repeated") == 2u);
  BOOST_TEST(f.client_ip == "127.0.0.9");
}

BOOST_AUTO_TEST_CASE(a_forwarded_request_that_is_no_request_is_refused) {
  actors::forwarded_request f;
  f.method = "BREW";
  f.target = "/v1/team";
  BOOST_TEST(!cluster::to_http_request(f));
  f.method = "GET";
  f.target = "http://elsewhere/";
  BOOST_TEST(!cluster::to_http_request(f));
  f.target = "/v1/team";
  f.fields = {"X-Odd"};
  BOOST_TEST(!cluster::to_http_request(f));
  f.fields = {"", "empty name"};
  BOOST_TEST(!cluster::to_http_request(f));
  f.fields = {"X-Split", "a\r\nX-Injected: b"};
  BOOST_TEST(!cluster::to_http_request(f));
  f.fields = {};
  f.http_version = 20;
  BOOST_TEST(!cluster::to_http_request(f));
}

// A request id and a client key reach answers, logs, rate buckets and stored
// records on the owner: a peer's must have the shapes this node would make.
BOOST_AUTO_TEST_CASE(a_forwarded_client_is_taken_only_in_the_shapes_a_node_makes) {
  auto r = make(bhttp::verb::get, "/v1/team");
  http::peer_info peer;
  peer.ip = boost::asio::ip::make_address("2001:db8:1:2::9");
  peer.address = http::client_key(peer.ip);
  auto id = core::make_id("req");
  auto f = cluster::to_forwarded_request(r, peer, id, false);
  auto taken = cluster::to_peer_info(f);
  BOOST_TEST_REQUIRE(taken.has_value());
  BOOST_TEST(taken->address == "2001:db8:1:2::/64");
  BOOST_TEST(taken->forwarded_request_id == id);
  BOOST_TEST(taken->ip == peer.ip);

  auto with = [&](auto change) {
    auto g = f;
    change(g);
    return cluster::to_peer_info(g).has_value();
  };
  BOOST_TEST(!with([](auto& g) { g.request_id = ""; }));
  BOOST_TEST(!with([](auto& g) { g.request_id = "req_1"; }), "not a ULID");
  BOOST_TEST(!with([&](auto& g) { g.request_id = id + "\r\nX-Injected: 1"; }));
  BOOST_TEST(!with([&](auto& g) { g.request_id = core::make_id("job"); }), "another kind of id");
  BOOST_TEST(!with([](auto& g) { g.client_ip = "not an address"; }));
  BOOST_TEST(!with([](auto& g) { g.client_address = "anyone's bucket"; }));
  BOOST_TEST(!with([](auto& g) { g.client_address = "2001:db8:1:2::9"; }), "an IPv6 client is keyed by its /64");
  BOOST_TEST(!with([](auto& g) { g.client_address = ""; }));
  BOOST_TEST(with([](auto& g) { g.client_address = "203.0.113.7"; }), "the client behind a trusted proxy");
}

BOOST_AUTO_TEST_CASE(members_and_the_map_round_trip_through_etcd_values) {
  actors::node_info n{"n2", "127.0.0.1:9002", "http://127.0.0.1:8080", "http://127.0.0.1:8081"};
  auto back = cluster::parse_node_value(cluster::node_value(n));
  BOOST_TEST_REQUIRE(back.has_value());
  BOOST_TEST(back->cluster_address == n.cluster_address);
  auto map = cluster::bootstrap_map({"n1", "n2", "n3"});
  BOOST_TEST(map.owners.size() == core::shard_count);
  BOOST_TEST(map.owners[0] == "n1");
  BOOST_TEST(map.owners[4] == "n2");
  auto parsed = cluster::parse_map_value(cluster::map_value(map), 42);
  BOOST_TEST_REQUIRE(parsed.has_value());
  BOOST_TEST(parsed->revision == 42);
  BOOST_TEST(parsed->owners == map.owners);
}

BOOST_AUTO_TEST_CASE(malformed_values_in_etcd_are_refused_whole) {
  BOOST_TEST(!cluster::parse_node_value("not json"));
  BOOST_TEST(!cluster::parse_node_value(R"({"id":"n1"})"));
  BOOST_TEST(!cluster::parse_node_value(R"({"id":"","cluster_address":"a","api_url":"b","admin_url":"c"})"));
  BOOST_TEST(!cluster::parse_map_value(R"({"owners":["n1"]})", 1)); // not every shard
  auto map = cluster::bootstrap_map({"n1"});
  map.owners[17] = "";
  BOOST_TEST(!cluster::parse_map_value(cluster::map_value(map), 1));
  BOOST_TEST(!cluster::parse_map_value("[]", 1));
  map.owners[17] = "N1\r\n";
  BOOST_TEST(!cluster::parse_map_value(cluster::map_value(map), 1), "an owner no node may be named");
}

BOOST_AUTO_TEST_CASE(a_recorded_move_round_trips_and_only_between_two_valid_nodes) {
  cluster::recorded_move move{"n1", "n3"};
  BOOST_TEST(cluster::move_key(7) == "/svc/moves/7");
  auto back = cluster::parse_move_value(cluster::move_value(move));
  BOOST_TEST_REQUIRE(back.has_value());
  BOOST_TEST((*back == move));
  BOOST_TEST(!cluster::parse_move_value(cluster::move_value({"n1", "n1"})), "a move to its own owner");
  BOOST_TEST(!cluster::parse_move_value(cluster::move_value({"n1", "N3\r\n"})));
  BOOST_TEST(!cluster::parse_move_value(R"({"from":"n1"})"));
  BOOST_TEST(!cluster::parse_move_value("n1 n3"));
}

// Whoever can write etcd must not be able to point this node's redirects
// elsewhere in a way a client cannot see, split its answers, or name nodes
// that break the rule the gate and the logs rely on.
BOOST_AUTO_TEST_CASE(a_member_value_is_taken_only_in_the_shape_a_node_writes) {
  actors::node_info good{"n2", "127.0.0.1:9002", "https://api.example.com", "http://10.0.0.2:8081"};
  BOOST_TEST(cluster::parse_node_value(cluster::node_value(good)).has_value());
  auto with = [&](auto change) {
    auto n = good;
    change(n);
    return cluster::parse_node_value(cluster::node_value(n)).has_value();
  };
  BOOST_TEST(!with([](auto& n) { n.id = "N2"; }));
  BOOST_TEST(!with([](auto& n) { n.id = "n2\nforged log line"; }));
  BOOST_TEST(!with([](auto& n) { n.cluster_address = "evil.example:9002"; }), "the gate dials addresses only");
  BOOST_TEST(!with([](auto& n) { n.cluster_address = "127.0.0.1:99999"; }));
  BOOST_TEST(!with([](auto& n) { n.api_url = "https://api.example.com\r\nSet-Cookie: x=1"; }), "a split answer");
  BOOST_TEST(!with([](auto& n) { n.api_url = "ftp://api.example.com"; }));
  BOOST_TEST(!with([](auto& n) { n.api_url = "/relative"; }));
  BOOST_TEST(!with([](auto& n) { n.api_url = "https://user:pw@api.example.com"; }));
  BOOST_TEST(!with([](auto& n) { n.api_url = "https://api.example.com/?a=1"; }));
  BOOST_TEST(!with([](auto& n) { n.admin_url = "http://10.0.0.2:0"; }));
  BOOST_TEST(with([](auto& n) { n.api_url = "https://api.example.com/svc"; }), "a path prefix is a base URL too");
}

BOOST_AUTO_TEST_SUITE_END()
