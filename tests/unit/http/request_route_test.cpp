// What a node reads off a request to find which shard's owner answers it
// (http/request_route): a key's shard, a resource id's, an admin path's.
#include <boost/test/unit_test.hpp>

#include "core/ids.hpp"
#include "core/shard.hpp"
#include "http/request_route.hpp"
#include "tests/support/routed_requests.hpp"

BOOST_AUTO_TEST_SUITE(http_request_route)

using namespace svc;
using http::request_route;
using where = request_route::where;
namespace bhttp = boost::beast::http;

using svc::test::key_on;

http::http_request make(bhttp::verb method, std::string target, std::string body = {}) {
  return svc::test::make_request(method, std::move(target), std::move(body));
}

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

BOOST_AUTO_TEST_SUITE_END()
