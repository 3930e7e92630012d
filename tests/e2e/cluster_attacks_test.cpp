// Attacks on a cluster:
// - a real svcd that holds a copy of a member's certificate and key (and so a
//   link to every member), with an empty data directory and an admin token of
//   its own: the owner of a team checks admin authority itself, so the
//   intruder's token buys nothing there;
// - clients behind a trusted proxy: the answers a node gives itself (a 307 to
//   the owner) draw from each client's anonymous bucket, so one client cannot
//   use up the proxy's for every other.
#include <boost/test/unit_test.hpp>

#include <stdexcept>

#include <boost/json.hpp>

#include "core/ids.hpp"
#include "core/shard.hpp"
#include "support/cluster_fixture.hpp"
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

} // namespace

BOOST_FIXTURE_TEST_CASE(a_copied_certificate_is_no_admin_token_on_another_node, two_nodes) {
  auto [team, key] = team_on(1);
  auto before = available_credits(*this, 0, team);
  // n3 joins with the members' certificate, on a data directory of its own:
  // its own fresh admin token, which no member holds.
  svcd_process intruder{node_args("n3", pki_dir)};
  BOOST_TEST_REQUIRE(wait_until([&] { return peer_state(*this, 1, "n3") == "up"; }, 10s, 50ms),
                     "the owner links to the intruder: the certificate is a member's");
  header_map own_token{{"Authorization", "Bearer " + intruder.admin_token()},
                       {"Content-Type", "application/json"}};
  http_client through_intruder{intruder.admin_url()};

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

BOOST_AUTO_TEST_SUITE_END()
