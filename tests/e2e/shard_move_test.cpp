// Moving a shard between the nodes of a cluster (POST /admin/shards/{shard}/move):
// the team's rows and output blobs arrive on the new owner, which serves the
// team from then on through every node; the old owner erases its copy after
// the grace period. Under load, no acknowledged create is lost and every
// job's event is in the team's events feed.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

#include <boost/json.hpp>

#include "core/shard.hpp"
#include "support/cluster_fixture.hpp"
#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/svcctl_runner.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_shard_move)

using namespace svc::e2e;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

// Starts moving `shard` to node `to` through node `via`: any node routes the request to the owner.
void start_move(const cluster_fixture& c, std::size_t via, int shard, const std::string& to) {
  auto r = c.admin(via).request("POST", "/admin/shards/" + std::to_string(shard) + "/move", c.admin_auth(via),
                                json::serialize(json::object{{"to", to}}));
  BOOST_TEST_REQUIRE(r.status == 202, r.summary());
  BOOST_TEST(json_str(r.json(), "state") == "moving");
}

// Waits until the move of `shard` shows `state` (asked through node `via`); returns the last answer.
json::value wait_move(const cluster_fixture& c, std::size_t via, int shard, const std::string& state) {
  json::value last;
  bool reached = wait_until(
    [&] {
      auto r = c.admin(via).get("/admin/shards/" + std::to_string(shard) + "/move", c.admin_auth(via));
      if (r.status != 200)
        return false;
      last = r.json();
      return json_str(last, "state") == state || json_str(last, "state") == "failed";
    },
    60s, 50ms);
  BOOST_TEST_REQUIRE(reached, "the move did not reach " << state << ": " << json::serialize(last));
  BOOST_TEST_REQUIRE(json_str(last, "state") == state, json::serialize(last));
  return last;
}

// Waits until every node's map names `owner` for `shard`.
void wait_map(const cluster_fixture& c, int shard, const std::string& owner) {
  BOOST_TEST_REQUIRE(wait_until(
                       [&] {
                         for (std::size_t i = 0; i < c.nodes.size(); ++i) {
                           auto owners = c.status(i).at("owners"); // kept: indexed below
                           if (owners.as_array().at(shard).as_string() != owner)
                             return false;
                         }
                         return true;
                       },
                       10s, 50ms),
                     "not every node names " << owner << " for shard " << shard);
}

// The state of the last move of `shard` that node `node` ran ("" if none).
std::string move_state_on(const cluster_fixture& c, std::size_t node, int shard) {
  auto s = c.status(node); // kept: the loop walks into it
  std::string state;
  for (auto& m : s.at("moves").as_array())
    if (m.at("shard").as_int64() == shard)
      state = std::string{m.at("state").as_string()};
  return state;
}

bool lists(const cluster_fixture& c, std::size_t node, const std::string& team) {
  auto r = c.admin(node).get("/admin/teams?limit=100", c.admin_auth(node));
  return r.status == 200 && json::serialize(r.json()).find(team) != std::string::npos;
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(shard_move, cluster_fixture)

BOOST_AUTO_TEST_CASE(a_moved_shard_keeps_its_data_and_its_new_owner_serves_it) {
  auto [team, key] = team_on(0);
  int shard = svc::core::shard_of_team(team);
  auto c = api(0);
  auto id = json_str(create_image_ok(c, key, image_body()), "id");
  auto done = wait_terminal(c, key, id);
  BOOST_TEST_REQUIRE(json_str(done, "status") == "succeeded", json::serialize(done));
  auto before = get_balance(c, key);

  start_move(*this, 2, shard, "n2");
  auto moved = wait_move(*this, 2, shard, "committed");
  BOOST_TEST_MESSAGE("committed: " << json::serialize(moved));
  wait_map(*this, shard, "n2");

  for (std::size_t i = 0; i < nodes.size(); ++i) {
    auto via = api(i);
    auto job = get_image(via, key, id);
    BOOST_TEST(json_str(job, "status") == "succeeded", ids[i] << ": " << json::serialize(job));
    auto balance = get_balance(via, key);
    BOOST_TEST(balance.available == before.available, ids[i]);
  }
  // n3 forwarded those reads to their owners, and its metrics say so.
  auto scrape = admin(2).get("/metrics", admin_auth(2));
  BOOST_TEST_REQUIRE(scrape.status == 200, scrape.summary());
  BOOST_TEST(scrape.body.find("svc_cluster_forwarded_total{peer=\"n2\",outcome=\"answered\"}") != std::string::npos);
  BOOST_TEST(scrape.body.find("svc_cluster_forward_duration_seconds_count{peer=\"n2\"}") != std::string::npos);
  // The new owner has the output's bytes and serves them.
  auto owner = api(1);
  auto url = json_str(get_image(owner, key, id), "outputs.0.url");
  auto bytes = api(1).get(target_of(url));
  BOOST_TEST(bytes.status == 200, bytes.summary());
  BOOST_TEST(bytes.body.substr(1, 3) == "PNG");
  // New work goes to the new owner.
  auto next = json_str(create_image_ok(c, key, image_body()), "id");
  BOOST_TEST(json_str(wait_terminal(c, key, next), "status") == "succeeded");
  BOOST_TEST(lists(*this, 1, team), "n2 holds the team");

  // After the grace period the old owner erased its copy.
  BOOST_TEST_REQUIRE(wait_until([&] { return move_state_on(*this, 0, shard) == "done"; }, 30s, 100ms),
                     move_state_on(*this, 0, shard));
  BOOST_TEST(!lists(*this, 0, team), "n1 erased the team after the grace period");
  // Every node, the two that moved the shard included, stops cleanly on SIGTERM.
  for (std::size_t i = 0; i < nodes.size(); ++i)
    BOOST_TEST(nodes[i]->stop() == 0, ids[i] << " did not stop cleanly");
}

BOOST_AUTO_TEST_CASE(a_shard_move_under_load_loses_no_acknowledged_create_and_no_event) {
  auto [team, key] = team_on(0);
  int shard = svc::core::shard_of_team(team);
  std::mutex mutex;
  std::vector<std::string> acknowledged;
  std::atomic<bool> stop{false};
  std::atomic<int> answered_503{0};
  std::string unexpected; // an answer neither acknowledged nor 503 (Boost.Test checks stay on the test's thread)
  // Creates through n3 with an Idempotency-Key each, retrying a 503 (the
  // frozen shard) with the same key until acknowledged.
  std::thread load{[&, key = key] { // a copy: a structured binding is not capturable before C++20
    auto via = api(2);
    for (int n = 0; !stop; ++n) {
      auto idem = "load-" + std::to_string(n);
      for (;;) {
        auto r = create_image(via, key, image_body("load " + std::to_string(n)), {{"Idempotency-Key", idem}});
        if (r.status == 503) {
          ++answered_503;
          std::this_thread::sleep_for(20ms); // Retry-After says 1 s; a client in a hurry retries sooner
          continue;
        }
        std::lock_guard lock{mutex};
        if (r.status == 201 || r.status == 200)
          acknowledged.push_back(json_str(r.json(), "id"));
        else
          unexpected = r.summary(), stop = true;
        break;
      }
    }
  }};
  auto acked = [&] {
    std::lock_guard lock{mutex};
    return acknowledged.size();
  };
  BOOST_TEST_REQUIRE(wait_until([&] { return acked() >= 5; }, 30s));
  start_move(*this, 0, shard, "n2");
  wait_move(*this, 1, shard, "committed");
  auto at_commit = acked();
  bool more = wait_until([&] { return acked() >= at_commit + 5; }, 30s);
  stop = true;
  load.join();
  BOOST_TEST_REQUIRE(unexpected.empty(), unexpected);
  BOOST_TEST_REQUIRE(more, "creates went on after the move");
  BOOST_TEST_MESSAGE(acknowledged.size() << " creates acknowledged, " << answered_503 << " answers 503 during the move");

  auto c = api(1);
  std::set<std::string> ids_seen;
  for (auto& id : acknowledged) {
    ids_seen.insert(id);
    auto job = wait_terminal(c, key, id);
    BOOST_TEST(json_str(job, "status") == "succeeded", id << ": " << json::serialize(job));
  }
  BOOST_TEST(ids_seen.size() == acknowledged.size(), "no key made two jobs");
  // Every job's completion is in the events feed (newest first, pages of 100).
  std::string events;
  std::string after;
  for (;;) {
    auto r = c.get("/v1/events?limit=100&type=image.completed" + (after.empty() ? "" : "&starting_after=" + after),
                   with_key(key));
    BOOST_TEST_REQUIRE(r.status == 200, r.summary());
    auto page = r.json();
    auto& data = page.at("data").as_array();
    events += json::serialize(page);
    if (data.empty() || !page.at("has_more").as_bool())
      break;
    after = std::string{data.back().at("id").as_string()};
  }
  for (auto& id : acknowledged)
    BOOST_TEST(events.find(id) != std::string::npos, "no image.completed event for " << id);
  // The ledger holds nothing for finished jobs.
  BOOST_TEST(get_balance(c, key).held == 0);
}

BOOST_AUTO_TEST_CASE(svcctl_moves_a_shard_and_drains_a_node) {
  auto [team, key] = team_on(2);
  int shard = svc::core::shard_of_team(team);
  // Asked of n1, which routes it to n3 and follows the move to its end.
  auto moved = run_svcctl(nodes[0]->data_dir(), {"shard", "move", std::to_string(shard), "--to", "n1"}, 60s);
  BOOST_TEST_REQUIRE(moved.exit_code == 0, moved.out << moved.err);
  BOOST_TEST(json_str(moved.out_json, "state") == "committed");
  wait_map(*this, shard, "n1");
  auto c = api(1);
  BOOST_TEST(c.get("/v1/team", with_key(key)).status == 200);

  auto drained = run_svcctl(nodes[0]->data_dir(), {"node", "drain", "n2"}, 240s);
  BOOST_TEST_REQUIRE(drained.exit_code == 0, drained.err);
  BOOST_TEST(wait_until([&] { return json_int(status(0), "shards_per_node.n2").value_or(0) == 0; }, 10s),
             json::serialize(status(0).at("shards_per_node")));
  auto per_node = status(0).at("shards_per_node"); // kept: read below
  BOOST_TEST_MESSAGE("after draining n2: " << json::serialize(per_node));
  BOOST_TEST(json_int(per_node, "n1").value_or(0) + json_int(per_node, "n3").value_or(0) == 256);
  BOOST_TEST(c.get("/v1/team", with_key(key)).status == 200, "the team is still served");
}

// A move back to the old owner while it still erases its copy (the grace
// period) is refused by that node's intake; the move fails before the map
// changes, so the shard stays where it is, thawed and served, and moves
// back once the old copy is gone.
BOOST_AUTO_TEST_CASE(a_move_back_within_the_grace_period_fails_and_the_shard_stays_served) {
  auto [team, key] = team_on(0);
  int shard = svc::core::shard_of_team(team);
  auto c = api(2);
  auto id = json_str(create_image_ok(c, key, image_body()), "id");
  BOOST_TEST_REQUIRE(json_str(wait_terminal(c, key, id), "status") == "succeeded");
  auto before = get_balance(c, key);
  start_move(*this, 2, shard, "n2");
  wait_move(*this, 2, shard, "committed");
  wait_map(*this, shard, "n2");

  start_move(*this, 2, shard, "n1");
  auto failed = wait_move(*this, 2, shard, "failed");
  BOOST_TEST_MESSAGE("moving back: " << json::serialize(failed));
  BOOST_TEST(json_str(failed, "error").find("did not take a page of rows (refused;") != std::string::npos,
             json::serialize(failed));
  BOOST_TEST(nodes[0]->log_tail(400).find("still erasing its previous copy of the shard") != std::string::npos);
  wait_map(*this, shard, "n2");
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    auto via = api(i);
    BOOST_TEST(json_str(get_image(via, key, id), "status") == "succeeded", ids[i]);
    BOOST_TEST(get_balance(via, key).available == before.available, ids[i]);
  }
  auto first = api(0);
  auto next = json_str(create_image_ok(first, key, image_body()), "id");
  BOOST_TEST(json_str(wait_terminal(c, key, next), "status") == "succeeded", "the shard thawed on n2");
  BOOST_TEST(lists(*this, 1, team), "n2 still holds the team");

  // Once n1's grace period is over, the same move succeeds.
  BOOST_TEST_REQUIRE(wait_until([&] { return move_state_on(*this, 0, shard) == "done"; }, 30s, 100ms),
                     move_state_on(*this, 0, shard));
  start_move(*this, 2, shard, "n1");
  wait_move(*this, 2, shard, "committed");
  wait_map(*this, shard, "n1");
  BOOST_TEST(json_str(get_image(c, key, next), "status") == "succeeded");
  BOOST_TEST(lists(*this, 0, team), "n1 holds the team again");
}

BOOST_AUTO_TEST_CASE(a_move_to_an_unknown_node_or_of_a_bad_shard_is_refused) {
  auto r = admin(0).request("POST", "/admin/shards/0/move", admin_auth(0), json::serialize(json::object{{"to", "n9"}}));
  BOOST_TEST(is_error(r, 400, "invalid_parameter"), r.summary());
  r = admin(0).request("POST", "/admin/shards/256/move", admin_auth(0), json::serialize(json::object{{"to", "n2"}}));
  BOOST_TEST(is_error(r, 400, "invalid_parameter"), r.summary());
  r = admin(0).get("/admin/shards/7/move", admin_auth(0));
  BOOST_TEST(is_error(r, 404, "resource_not_found"), r.summary());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
