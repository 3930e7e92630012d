// A cluster of three svcd nodes with etcd, on loopback: a team's requests
// work through every node (forwarded to the owner in one typed request;
// output downloads redirected to it), a killed owner makes only its own
// teams answer 503 owner_unavailable, at once, and they answer again after
// it restarts; a hung node is declared down within the heartbeat timeout;
// a node whose certificate another CA signed cannot link to the others.
#include <boost/test/unit_test.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>

#include <boost/json.hpp>

#include "support/cluster_fixture.hpp"
#include "support/file_uploads.hpp"
#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/process.hpp"
#include "support/wait.hpp"
#include "bench/receiver/test_ca.hpp"

BOOST_AUTO_TEST_SUITE(e2e_cluster)

using namespace svc::e2e;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

std::chrono::milliseconds elapsed_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t);
}

// The state node `i` reports for its link to node `peer_id`.
std::string peer_state(const cluster_fixture& c, std::size_t i, const std::string& peer_id) {
  auto status = c.status(i); // kept: the loop walks into it
  for (auto& p : status.at("peers").as_array())
    if (p.at("id").as_string() == peer_id)
      return std::string{p.at("state").as_string()};
  return "absent";
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(cluster, cluster_fixture)

BOOST_AUTO_TEST_CASE(shards_are_dealt_over_the_nodes_and_every_node_sees_the_same_map) {
  auto first = status(0);
  BOOST_TEST(json_int(first, "shards_per_node.n1").value_or(0) == 86);
  BOOST_TEST(json_int(first, "shards_per_node.n2").value_or(0) == 85);
  BOOST_TEST(json_int(first, "shards_per_node.n3").value_or(0) == 85);
  for (std::size_t i = 1; i < nodes.size(); ++i) {
    auto s = status(i);
    BOOST_TEST(json_str(s, "node_id") == ids[i]);
    BOOST_TEST(json_int(s, "map_revision") == json_int(first, "map_revision"));
    BOOST_TEST(json::serialize(s.at("owners")) == json::serialize(first.at("owners")));
  }
}

BOOST_AUTO_TEST_CASE(a_team_made_through_one_node_is_served_by_every_node) {
  auto team = create_team(0, 500);
  auto key = create_key(1, team); // through another node than the team's creator
  auto owner = owner_of_team(team);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    auto c = api(i);
    auto r = c.get("/v1/team", with_key(key));
    BOOST_TEST_REQUIRE(r.status == 200, ids[i] << ": " << r.summary());
    BOOST_TEST(json_str(r.json(), "id") == team);
    BOOST_TEST(is_request_id(r.header_or_empty("Svc-Request-Id")));
    BOOST_TEST(r.header("X-RateLimit-Limit").has_value(), ids[i] << ": the owner's rate limit applies");
  }
  // Only the owner's store holds the team.
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    auto r = admin(i).get("/admin/teams?limit=100", admin_auth(i));
    BOOST_TEST_REQUIRE(r.status == 200, r.summary());
    bool listed = json::serialize(r.json()).find(team) != std::string::npos;
    BOOST_TEST(listed == (i == owner), ids[i] << (listed ? " lists " : " does not list ") << team);
  }
}

BOOST_AUTO_TEST_CASE(an_image_is_created_polled_and_downloaded_through_different_nodes) {
  auto [team, key] = team_on(2);
  auto front = api(0);
  auto created = create_image_ok(front, key, image_body());
  auto id = json_str(created, "id");
  auto poller = api(1);
  auto done = wait_terminal(poller, key, id);
  BOOST_TEST_REQUIRE(json_str(done, "status") == "succeeded", json::serialize(done));
  auto url = json_str(done, "outputs.0.url");
  // The output URL names the owner's base URL; asked of another node, it redirects there.
  auto target = target_of(url);
  auto other = api(0).get(target);
  BOOST_TEST_REQUIRE(other.status == 307, other.summary());
  auto location = other.header_or_empty("Location");
  BOOST_TEST(location == nodes[2]->api_url() + target);
  auto bytes = api(2).get(target);
  BOOST_TEST(bytes.status == 200, bytes.summary());
  BOOST_TEST(bytes.body.substr(1, 3) == "PNG");
  // Cancelling a finished job through a third node answers the owner's 409.
  auto cancel = api(1).request("POST", "/v1/images/" + id + "/cancel", with_key(key));
  BOOST_TEST(is_error(cancel, 409, "invalid_state"), cancel.summary());
}

BOOST_AUTO_TEST_CASE(an_upload_to_another_node_is_redirected_to_the_owner_which_stores_it) {
  auto [team, key] = team_on(1);
  auto bytes = test_image("tiny.png");
  auto other = api(0);
  auto r = upload_file(other, key, bytes);
  BOOST_TEST_REQUIRE(r.status == 307, r.summary());
  BOOST_TEST(r.header_or_empty("Location") == nodes[1]->api_url() + "/v1/files");
  auto owner = api(1);
  auto stored = upload_file_ok(owner, key, bytes);
  // The owner holds it, and every node reads its record.
  auto id = json_str(stored, "id");
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    auto via = api(i);
    auto read = via.get("/v1/files/" + id, with_key(key));
    BOOST_TEST(read.status == 200, ids[i] << ": " << read.summary());
  }
}

BOOST_AUTO_TEST_CASE(a_killed_owner_fails_only_its_teams_at_once_and_they_come_back) {
  auto [lost_team, lost_key] = team_on(2);
  auto [kept_team, kept_key] = team_on(1);
  nodes[2]->kill9();
  auto killed = std::chrono::steady_clock::now();
  auto c = api(0);
  response r;
  // Structured bindings are captured as named copies: C++17 cannot capture them (clang refuses).
  BOOST_TEST_REQUIRE(wait_until([&, lost_key = lost_key] { return is_error(r = c.get("/v1/team", with_key(lost_key)), 503, "owner_unavailable"); }, 5s),
                     r.summary());
  BOOST_TEST_MESSAGE("first 503 owner_unavailable " << elapsed_since(killed).count() << " ms after the kill");
  BOOST_TEST(header_int(r, "Retry-After").has_value());
  auto asked = std::chrono::steady_clock::now();
  r = c.get("/v1/team", with_key(lost_key));
  BOOST_TEST(is_error(r, 503, "owner_unavailable"), r.summary());
  BOOST_TEST(elapsed_since(asked).count() < 100, "a request for a dead owner's team fails fast");
  auto kept = c.get("/v1/team", with_key(kept_key));
  BOOST_TEST(kept.status == 200, "a live owner's team: " << kept.summary());

  nodes[2]->start();
  auto restarted = std::chrono::steady_clock::now();
  BOOST_TEST_REQUIRE(wait_until([&, lost_key = lost_key] { return c.get("/v1/team", with_key(lost_key)).status == 200; }, 5s),
                     "the team answers again within 5 s of the restart");
  BOOST_TEST_MESSAGE("served again " << elapsed_since(restarted).count() << " ms after the restarted node wrote svcd.json");
}

BOOST_AUTO_TEST_CASE(a_hung_node_is_declared_down_within_the_heartbeat_timeout) {
  auto [team, key] = team_on(2);
  ::kill(nodes[2]->pid(), SIGSTOP);
  auto stopped = std::chrono::steady_clock::now();
  bool down = wait_until([&] { return peer_state(*this, 0, "n3") != "up"; }, 5s, 50ms);
  auto took = elapsed_since(stopped);
  ::kill(nodes[2]->pid(), SIGCONT);
  BOOST_TEST_REQUIRE(down, "n1 still links to a stopped n3");
  BOOST_TEST_MESSAGE("declared down " << took.count() << " ms after SIGSTOP (--cluster-timeout 1s)");
  BOOST_TEST(took.count() < 3000);
  BOOST_TEST(wait_until([&, key = key] { return api(0).get("/v1/team", with_key(key)).status == 200; }, 10s),
             "served again after SIGCONT");
}

BOOST_AUTO_TEST_CASE(a_node_with_a_foreign_certificate_cannot_link) {
  auto foreign_dir = make_temp_dir("svc-e2e-foreign-pki-");
  auto foreign = svc::receiver::make_test_pki(); // another CA
  svc::receiver::write_test_pki(foreign, foreign_dir);
  auto n4 = svc::receiver::make_node_identity(foreign.ca, "n4");
  std::ofstream{foreign_dir + "/n4.pem"} << n4.cert;
  std::ofstream{foreign_dir + "/n4.key"} << n4.key;
  // The node trusts the cluster's CA but presents a certificate of another one.
  auto args = node_args("n4", foreign_dir);
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--cluster-ca")
      args[i + 1] = pki_dir + "/ca.pem";
  svcd_process intruder{std::move(args)};
  BOOST_TEST(wait_until([&] { return peer_state(*this, 0, "n4") == "down"; }, 10s, 50ms),
             "n1 sees n4 registered in etcd but never links to it");
  auto s = status(0);
  BOOST_TEST_MESSAGE("n1's view of n4: " << json::serialize(s.at("peers")));
  BOOST_TEST(peer_state(*this, 0, "n4") != "up");
  std::error_code ignored;
  std::filesystem::remove_all(foreign_dir, ignored);
}

BOOST_AUTO_TEST_SUITE_END()

namespace {
// Two nodes whose renders take long enough that a kill finds one running and one queued.
struct slow_cluster : cluster_fixture {
  slow_cluster() : cluster_fixture(2, {"--render-delay", "1500ms", "--workers", "1"}) {}
};
} // namespace

// A node learns which shards it holds only from etcd's map, after its start:
// the jobs and deliveries it resumes must be those of the map's shards, not
// none (as when its start-up recovery ran before the map was known).
BOOST_FIXTURE_TEST_CASE(a_restarted_owner_resumes_its_unfinished_jobs, slow_cluster) {
  auto [team, key] = team_on(1);
  auto owner = api(1);
  auto running = json_str(create_image_ok(owner, key, image_body()), "id");
  auto queued = json_str(create_image_ok(owner, key, image_body()), "id");
  nodes[1]->kill9();
  nodes[1]->start();
  wait_formed();
  auto via = api(0);
  for (auto& id : {running, queued}) {
    auto done = wait_terminal(via, key, id, 30s);
    BOOST_TEST(json_str(done, "status") == "succeeded", id << " after the owner's restart: " << json::serialize(done));
  }
}

BOOST_AUTO_TEST_SUITE_END()
