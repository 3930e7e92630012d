// Attacks on a cluster:
// - a node whose certificate names another node: svcd refuses to start on it,
//   and a peer that says hello as another node, or hands over or erases a
//   shard it does not hold (this test process, linked through a gate of its
//   own with a certificate of the cluster's CA), is refused, and the cluster
//   serves on as before;
// - a real svcd that holds a member's certificate and key (and so a link to
//   every member), with an empty data directory and an admin token of its
//   own: the owner of a team checks admin authority itself, so the
//   intruder's token buys nothing there;
// - a node with a member's certificate but not etcd's login: etcd refuses it,
//   so it never registers and no member links to it;
// - a node the shard map names (a forged map) moves the shard onto another
//   node only under a record of the move in etcd;
// - clients behind a trusted proxy: the answers a node gives itself (a 307 to
//   the owner) draw from each client's anonymous bucket, so one client cannot
//   use up the proxy's for every other.
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <boost/json.hpp>

#include "clients/etcd_client.hpp"
#include "core/crypto.hpp"
#include "core/ids.hpp"
#include "core/shard.hpp"
#include "support/cluster_fixture.hpp"
#include "support/rogue_peer.hpp"
#include "support/json_util.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_cluster_attacks)

using namespace svc::e2e;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

// The state node `i` reports for its link to node `peer_id`.
std::string peer_state(const cluster_fixture& c, std::size_t i, const std::string& peer_id) {
  auto status = c.status(i);
  for (auto& p : status.at("peers").as_array())
    if (p.at("id").as_string() == peer_id)
      return std::string{p.at("state").as_string()};
  return "absent";
}

std::int64_t available_credits(const cluster_fixture& c, std::size_t via, const std::string& team) {
  auto r = c.admin(via).get("/admin/teams/" + team, c.admin_auth(via));
  BOOST_TEST_REQUIRE(r.status == 200, r.summary());
  return json_int(r.json(), "balance.available").value_or(-1);
}

struct two_nodes : cluster_fixture {
  two_nodes() : cluster_fixture(2) {}
};

struct two_nodes_behind_a_proxy : cluster_fixture {
  two_nodes_behind_a_proxy() : cluster_fixture(2, {"--trusted-proxy", "127.0.0.0/8"}) {}
};

// Where node `i` listens for its peers, as the members' view says.
std::string cluster_address_of(const cluster_fixture& c, std::size_t i) {
  auto status = c.status(0); // kept: the loop walks into it
  for (auto& n : status.at("nodes").as_array())
    if (n.at("id").as_string() == c.ids[i])
      return std::string{n.at("cluster_address").as_string()};
  throw std::runtime_error(c.ids[i] + " is not in the view");
}

// A shard node `owner` holds.
uint16_t shard_held_by(const cluster_fixture& c, std::size_t owner) {
  auto owners = c.status(0).at("owners").as_array();
  for (std::size_t shard = 0; shard < owners.size(); ++shard)
    if (owners[shard].as_string() == c.ids[owner])
      return static_cast<uint16_t>(shard);
  throw std::runtime_error(c.ids[owner] + " holds no shard");
}

// A job id of a shard node `owner` holds: its output URL is redirected there.
std::string job_id_held_by(const cluster_fixture& c, std::size_t owner) {
  auto owners = c.status(0).at("owners").as_array();
  for (std::size_t shard = 0; shard < owners.size(); ++shard)
    if (owners[shard].as_string() == c.ids[owner])
      return svc::core::make_id("img", static_cast<svc::core::shard_id>(shard));
  throw std::runtime_error(c.ids[owner] + " holds no shard");
}

// Tokens the anonymous bucket of the client that `forwarded_for` names is
// below its capacity after one more redirect answered by node 0.
std::int64_t used_after_redirect(http_client& c, const std::string& target, const std::string& forwarded_for) {
  auto r = c.get(target, {{"X-Forwarded-For", forwarded_for}});
  BOOST_TEST(r.status == 307, r.summary());
  return header_int(r, "X-RateLimit-Limit").value_or(0) - header_int(r, "X-RateLimit-Remaining").value_or(0);
}

// How many requests node `i` forwarded to node `peer` that were answered (its /metrics).
std::int64_t forwarded_to(const cluster_fixture& c, std::size_t i, std::size_t peer) {
  auto scrape = c.admin(i).get("/metrics", c.admin_auth(i));
  BOOST_TEST_REQUIRE(scrape.status == 200, scrape.summary());
  auto series = "svc_cluster_forwarded_total{peer=\"" + c.ids[peer] + "\",outcome=\"answered\"} ";
  auto at = scrape.body.find(series);
  return at == std::string::npos ? 0 : std::stoll(scrape.body.substr(at + series.size()));
}

} // namespace

BOOST_FIXTURE_TEST_CASE(a_certificate_that_names_another_node_starts_no_node, two_nodes) {
  auto args = node_args("n3", pki_dir);
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "--cluster-cert")
      args[i + 1] = pki_dir + "/n2.pem";
    if (args[i] == "--cluster-key")
      args[i + 1] = pki_dir + "/n2.key";
  }
  try {
    svcd_process impostor{std::move(args)};
    BOOST_ERROR("svcd started as n3 with n2's certificate");
  } catch (const std::runtime_error& e) {
    std::string why = e.what();
    BOOST_TEST(why.find("names node n2, not --node-id n3") != std::string::npos, why);
  }
}

BOOST_FIXTURE_TEST_CASE(a_peer_is_served_only_as_the_node_its_certificate_names, two_nodes) {
  auto [team, key] = team_on(1);
  issue_identity("n3");
  rogue_peer rogue{pki_dir, "n3"};
  auto n1 = rogue.link(cluster_address_of(*this, 0), "n1");
  BOOST_TEST_REQUIRE(n1.has_value(), "a certificate of the CA links");
  BOOST_TEST(!rogue.link(cluster_address_of(*this, 1), "n1").has_value(),
             "n2's address is not taken for n1's: the certificate there names n2");

  // As n2, the rogue would take over n1's link to n2: its requests for n2's teams.
  rogue.hello(*n1, "n2");
  auto shard = shard_held_by(*this, 1);
  BOOST_TEST(rogue.adopt(*n1, shard) == std::optional<bool>{false}, "n1 serving n2's shard on n3's word");
  BOOST_TEST(rogue.erase(*n1, shard_held_by(*this, 0)) == std::optional<bool>{false});
  BOOST_TEST(rogue.erase(*n1, shard) == std::optional<bool>{false}, "n3 does not hold the shard either");

  auto r = api(0).get("/v1/team", with_key(key));
  BOOST_TEST(r.status == 200, "n2's team through n1, after the rogue's attempts: " << r.summary());
  BOOST_TEST(peer_state(*this, 0, "n2") == "up");
}

BOOST_FIXTURE_TEST_CASE(a_member_certificate_without_etcds_login_never_joins, two_nodes) {
  // etcd takes only its RBAC user: n3 holds a certificate of the cluster and
  // one etcd takes, but not the user's password.
  issue_identity("n3");
  auto wrong = pki_dir + "/wrong.password";
  {
    std::ofstream out{wrong};
    out << "guessed-password\n";
  }
  std::filesystem::permissions(wrong, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  auto args = node_args("n3", pki_dir);
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--etcd-password-file")
      args[i + 1] = wrong;
  svcd_process outsider{std::move(args)};
  BOOST_TEST_REQUIRE(wait_until([&] { return outsider.log_tail(200).find("authentication failed") != std::string::npos; },
                                10s, 50ms),
                     "no refused login in n3's log:\n" << outsider.log_tail());
  BOOST_TEST(outsider.log_tail(200).find("guessed-password") == std::string::npos, "the password reached the log");
  BOOST_TEST(peer_state(*this, 0, "n3") == "absent", "n3 registered in etcd without its login");
  BOOST_TEST(peer_state(*this, 1, "n3") == "absent");
}

// Whoever etcd's map names as a shard's owner moves it only under a record
// of the move in etcd, which only the cluster's etcd user writes: a node
// with a member's certificate that the map names (here by a forged map)
// cannot push the shard's pages onto another node on its own word.
BOOST_FIXTURE_TEST_CASE(a_move_begins_only_under_its_record_in_etcd, two_nodes) {
  issue_identity("n3");
  rogue_peer rogue{pki_dir, "n3"};
  auto n1 = rogue.link(cluster_address_of(*this, 0), "n1");
  BOOST_TEST_REQUIRE(n1.has_value());
  auto shard = shard_held_by(*this, 1);
  auto& c = etcd.credentials();
  svc::clients::etcd_client store{{etcd.endpoint()}, 2s, svc::clients::etcd_security{{c.ca, c.cert, c.key}, c.user, c.password}};
  auto map = json::parse(store.get("/svc/shards").kvs.at(0).value);
  map.as_object()["owners"].as_array()[shard] = "n3";
  store.put("/svc/shards", json::serialize(map));
  BOOST_TEST_REQUIRE(wait_until([&] { return status(0).at("owners").as_array()[shard] == "n3"; }, 10s, 20ms));

  auto key = "/svc/moves/" + std::to_string(shard);
  BOOST_TEST(rogue.begin_move(*n1, shard) == std::optional<bool>{false}, "a move with no record began");
  store.put(key, R"({"from":"n3","to":"n2"})");
  BOOST_TEST(rogue.begin_move(*n1, shard) == std::optional<bool>{false}, "a move recorded to another node began");
  store.put(key, R"({"from":"n3","to":"n1"})");
  BOOST_TEST(rogue.begin_move(*n1, shard) == std::optional<bool>{true}, "the recorded move did not begin");
  BOOST_TEST(rogue.erase(*n1, shard) == std::optional<bool>{true}, "the move's owner drops what it sent");
}

BOOST_FIXTURE_TEST_CASE(a_copied_certificate_is_no_admin_token_on_another_node, two_nodes) {
  auto [team, key] = team_on(1);
  auto before = available_credits(*this, 0, team);
  // n3 joins with a certificate of the cluster's CA, on a data directory of
  // its own: its own fresh admin token, which no member holds.
  issue_identity("n3");
  svcd_process intruder{node_args("n3", pki_dir)};
  BOOST_TEST_REQUIRE(wait_until([&] { return peer_state(*this, 1, "n3") == "up"; }, 10s, 50ms),
                     "the owner links to the intruder: the certificate is a member's");
  header_map own_token{{"Authorization", "Bearer " + intruder.admin_token()},
                       {"Content-Type", "application/json"}};
  http_client through_intruder{intruder.admin_url()};
  // The intruder forwards once it has the map and its own link to the owner up.
  auto intruder_linked = [&] {
    auto r = through_intruder.get("/admin/cluster", own_token);
    if (r.status != 200)
      return false;
    auto view = r.json(); // kept: the loop walks into it
    if (json_int(view, "map_revision").value_or(0) <= 0)
      return false;
    for (auto& p : view.at("peers").as_array())
      if (p.at("id").as_string() == "n2" && p.at("state").as_string() == "up")
        return true;
    return false;
  };
  BOOST_TEST_REQUIRE(wait_until(intruder_linked, 10s, 50ms), "the intruder never had the map and a link to n2");

  auto r = through_intruder.request("POST", "/admin/teams/" + team + "/credits", own_token,
                                    R"({"amount": 777, "reason": "minted"})");
  BOOST_TEST(r.status == 401, "credits added through the intruder: " << r.summary());
  r = through_intruder.request("POST", "/admin/keys", own_token,
                               json::serialize(json::object{{"team_id", team}, {"scope", "full"}}));
  BOOST_TEST(r.status == 401, "a key minted through the intruder: " << r.summary());
  BOOST_TEST(available_credits(*this, 0, team) == before, "the team's balance is unchanged");

  // The cluster's own token, sent through either member, still works.
  auto h = admin_auth(0);
  h["Content-Type"] = "application/json";
  r = admin(0).request("POST", "/admin/teams/" + team + "/credits", h, R"({"amount": 5, "reason": "top-up"})");
  BOOST_TEST(r.status / 100 == 2, "credits through a member with the cluster's token: " << r.summary());
  BOOST_TEST(available_credits(*this, 0, team) == before + 5);
}

BOOST_FIXTURE_TEST_CASE(a_redirect_behind_a_trusted_proxy_draws_from_the_clients_bucket, two_nodes_behind_a_proxy) {
  auto target = "/v1/outputs/" + job_id_held_by(*this, 1) + "/0";
  auto c = api(0);
  std::int64_t used = 0;
  for (int i = 0; i < 20; ++i)
    used = used_after_redirect(c, target, "203.0.113.7");
  BOOST_TEST(used >= 15, "twenty redirects drew from the client's bucket");
  BOOST_TEST(used_after_redirect(c, target, "203.0.113.8") <= 3, "another client behind the proxy has its own");
}

// Made-up keys of a shard the other node holds: each request would cross
// the link to be refused there (with up to --body-limit of body). The
// accepting node makes them draw from the client's anonymous bucket
// (capacity 600) until an owner has accepted the key, so the flood stops
// here; a real key's requests are not held to that bucket.
BOOST_FIXTURE_TEST_CASE(made_up_keys_cross_the_link_only_as_the_anonymous_bucket_allows, two_nodes) {
  char shard_hex[3];
  std::snprintf(shard_hex, sizeof shard_hex, "%02x", shard_held_by(*this, 1));
  auto c = api(0);
  // A real key of a team on the other node, accepted by its owner once.
  auto real_key = team_on(1).second;
  BOOST_TEST_REQUIRE(c.get("/v1/balance", with_key(real_key)).status == 200);
  // One made-up key, sent where the owner answers before it authenticates
  // (404): no such answer vouches for it, so each request still pays.
  auto made_up = "svc_live_" + std::string{shard_hex} + svc::core::random_hex(31);
  auto before_unknown_route = forwarded_to(*this, 0, 1);
  for (int i = 0; i < 700; ++i) {
    auto r = c.get("/v1/no-such-route", with_key(made_up));
    BOOST_TEST((r.status == 404 || is_error(r, 429, "too_many_requests")), r.summary());
  }
  auto crossed = forwarded_to(*this, 0, 1) - before_unknown_route;
  BOOST_TEST(crossed <= 640, "one made-up key's requests to an unknown route that crossed: " << crossed);

  auto forwarded_before = forwarded_to(*this, 0, 1);
  int refused = 0;
  for (int i = 0; i < 700; ++i) {
    auto key = "svc_live_" + std::string{shard_hex} + svc::core::random_hex(31);
    auto r = c.get("/v1/balance", with_key(key));
    if (r.status == 401 || is_error(r, 429, "too_many_requests"))
      ++refused;
    else
      BOOST_ERROR("a made-up key answered " << r.summary());
  }
  BOOST_TEST(refused == 700);
  auto forwarded = forwarded_to(*this, 0, 1) - forwarded_before;
  BOOST_TEST(forwarded <= 640, "made-up keys' requests that crossed the link: " << forwarded << " of 700");

  // The same client's real key goes on, past its empty anonymous bucket.
  int served = 0;
  for (int i = 0; i < 50; ++i)
    served += c.get("/v1/balance", with_key(real_key)).status == 200 ? 1 : 0;
  BOOST_TEST(served >= 49, "a real key's requests after the flood: " << served << " of 50 served");
}

BOOST_AUTO_TEST_SUITE_END()
