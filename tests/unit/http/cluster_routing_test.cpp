// What a cluster node reads off a request to find who answers it
// (http/cluster/request_route), how a request crosses to the owner and back
// (node_entry's conversions), and what it keeps in etcd (etcd_values).
#define BOOST_TEST_MODULE http_cluster_routing
#include <boost/test/unit_test.hpp>

#include "core/ids.hpp"
#include "core/shard.hpp"
#include "http/cluster/etcd_values.hpp"
#include "http/cluster/node_entry.hpp"
#include "http/cluster/request_route.hpp"
#include "schema/api_key_format.hpp"

using namespace svc;
using http::request_route;
using where = request_route::where;
namespace bhttp = boost::beast::http;

namespace {

http::http_request make(bhttp::verb method, std::string target, std::string body = {}) {
  http::http_request r{method, target, 11};
  r.body() = std::move(body);
  return r;
}

// A key whose secret names `shard`.
std::string key_on(core::shard_id shard) {
  static const char* hex = "0123456789abcdef";
  std::string secret{hex[shard >> 4], hex[shard & 15]};
  secret += std::string(62, 'a');
  return schema::api_key_plaintext(secret);
}

} // namespace

BOOST_AUTO_TEST_CASE(an_api_key_routes_to_its_shard_by_either_header) {
  auto r = make(bhttp::verb::get, "/v1/team");
  r.set("X-Api-Key", key_on(0x7c));
  auto route = http::route_api_request(r);
  BOOST_TEST((route.at == where::shard));
  BOOST_TEST(route.shard == 0x7c);
  BOOST_TEST(!route.redirect);
  auto bearer = make(bhttp::verb::get, "/v1/images?limit=3");
  bearer.set(bhttp::field::authorization, "Bearer " + key_on(3));
  BOOST_TEST(http::route_api_request(bearer).shard == 3);
}

BOOST_AUTO_TEST_CASE(requests_without_a_valid_key_are_answered_where_they_arrive) {
  BOOST_TEST((http::route_api_request(make(bhttp::verb::get, "/docs")).at == where::here));
  auto bad = make(bhttp::verb::get, "/v1/team");
  bad.set("X-Api-Key", "svc_live_not-hex");
  BOOST_TEST((http::route_api_request(bad).at == where::here)); // answered 401 here, like any bad key
}

BOOST_AUTO_TEST_CASE(downloads_and_uploads_are_redirected_to_the_owner) {
  auto job = core::make_id("img", 200);
  auto out = http::route_api_request(make(bhttp::verb::get, "/v1/outputs/" + job + "/0?exp=1&sig=ab"));
  BOOST_TEST((out.at == where::shard));
  BOOST_TEST(out.shard == 200);
  BOOST_TEST(out.redirect);
  auto upload = make(bhttp::verb::post, "/v1/files");
  upload.set("X-Api-Key", key_on(9));
  BOOST_TEST(http::route_api_request(upload).redirect);
  auto listing = make(bhttp::verb::get, "/v1/files");
  listing.set("X-Api-Key", key_on(9));
  BOOST_TEST(!http::route_api_request(listing).redirect);
}

BOOST_AUTO_TEST_CASE(admin_routes_go_by_the_team_or_resource_they_name) {
  std::string team = "team_01KAK3S0ZV8Q6N4R2T0W9X7Y5B";
  auto by_path = http::route_admin_request(make(bhttp::verb::post, "/admin/teams/" + team + "/credits"));
  BOOST_TEST((by_path.at == where::shard));
  BOOST_TEST(by_path.shard == core::shard_of_team(team));
  auto by_body = http::route_admin_request(make(bhttp::verb::post, "/admin/keys", R"({"team_id":")" + team + R"(","scope":"full"})"));
  BOOST_TEST(by_body.shard == core::shard_of_team(team));
  auto key_id = core::make_id("key", 77);
  BOOST_TEST(http::route_admin_request(make(bhttp::verb::post, "/admin/keys/" + key_id + "/rotate")).shard == 77);
  BOOST_TEST((http::route_admin_request(make(bhttp::verb::post, "/admin/teams", "{}")).at == where::new_team));
  for (auto target : {"/admin/teams", "/admin/actors", "/metrics", "/admin/cluster"})
    BOOST_TEST((http::route_admin_request(make(bhttp::verb::get, target)).at == where::here), target);
  // A body that is not JSON is answered here (400), not guessed at.
  BOOST_TEST((http::route_admin_request(make(bhttp::verb::post, "/admin/keys", "team_id=x")).at == where::here));
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
  auto f = http::to_forwarded_request(r, peer, "req_01KAK3S0ZV8Q6N4R2T0W9X7Y5B", false);
  auto back = http::to_http_request(f);
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
  BOOST_TEST(!http::to_http_request(f));
  f.method = "GET";
  f.target = "http://elsewhere/";
  BOOST_TEST(!http::to_http_request(f));
  f.target = "/v1/team";
  f.fields = {"X-Odd"};
  BOOST_TEST(!http::to_http_request(f));
  f.fields = {"", "empty name"};
  BOOST_TEST(!http::to_http_request(f));
  f.fields = {"X-Split", "a\r\nX-Injected: b"};
  BOOST_TEST(!http::to_http_request(f));
  f.fields = {};
  f.http_version = 20;
  BOOST_TEST(!http::to_http_request(f));
}

BOOST_AUTO_TEST_CASE(members_and_the_map_round_trip_through_etcd_values) {
  actors::node_info n{"n2", "127.0.0.1:9002", "http://127.0.0.1:8080", "http://127.0.0.1:8081"};
  auto back = http::parse_node_value(http::node_value(n));
  BOOST_TEST_REQUIRE(back.has_value());
  BOOST_TEST(back->cluster_address == n.cluster_address);
  auto map = http::bootstrap_map({"n1", "n2", "n3"});
  BOOST_TEST(map.owners.size() == core::shard_count);
  BOOST_TEST(map.owners[0] == "n1");
  BOOST_TEST(map.owners[4] == "n2");
  auto parsed = http::parse_map_value(http::map_value(map), 42);
  BOOST_TEST_REQUIRE(parsed.has_value());
  BOOST_TEST(parsed->revision == 42);
  BOOST_TEST(parsed->owners == map.owners);
}

BOOST_AUTO_TEST_CASE(malformed_values_in_etcd_are_refused_whole) {
  BOOST_TEST(!http::parse_node_value("not json"));
  BOOST_TEST(!http::parse_node_value(R"({"id":"n1"})"));
  BOOST_TEST(!http::parse_node_value(R"({"id":"","cluster_address":"a","api_url":"b","admin_url":"c"})"));
  BOOST_TEST(!http::parse_map_value(R"({"owners":["n1"]})", 1)); // not every shard
  auto map = http::bootstrap_map({"n1"});
  map.owners[17] = "";
  BOOST_TEST(!http::parse_map_value(http::map_value(map), 1));
  BOOST_TEST(!http::parse_map_value("[]", 1));
}
