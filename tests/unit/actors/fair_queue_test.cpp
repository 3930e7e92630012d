// The fair queue in simulated engine time: a fleet of slots takes the next
// job whenever one is free, and each render takes its actual seconds. Shares
// are counted in engine seconds while every team named is backlogged.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <functional>
#include <map>
#include <queue>
#include <set>
#include <string>
#include <vector>

#include "actors/fair_queue.hpp"

using svc::actors::fair_queue;
using svc::actors::queued_job;
using svc::actors::team_share;

namespace {

// A discrete-event run of `slots` engines over `q`.
struct fleet_sim {
  fair_queue& q;
  int slots;
  std::function<double(const queued_job&)> actual = [](const queued_job& j) { return j.cost; };
  std::function<bool(const std::string&)> runnable = [](const std::string&) { return true; };

  struct running {
    double ends;
    double took;
    queued_job job;
    bool operator>(const running& o) const { return ends > o.ends; }
  };
  std::priority_queue<running, std::vector<running>, std::greater<running>> busy;
  double now = 0;
  std::map<std::string, double> seconds;  ///< engine seconds per team, counted at dispatch
  std::map<std::string, int> jobs;
  std::vector<queued_job> order;          ///< every dispatch, in order
  int most_busy = 0;

  void fill() {
    while (static_cast<int>(busy.size()) < slots) {
      auto j = q.pop(runnable);
      if (!j)
        break;
      double took = actual(*j);
      seconds[j->team] += took;
      ++jobs[j->team];
      order.push_back(*j);
      busy.push({now + took, took, *j});
    }
    most_busy = std::max(most_busy, static_cast<int>(busy.size()));
  }
  // Runs until `stop` holds after a dispatch round, or nothing runs.
  void run(const std::function<bool()>& stop) {
    fill();
    while (!busy.empty() && !stop()) {
      auto done = busy.top();
      busy.pop();
      now = done.ends;
      q.finished(done.job.team, done.job.cost, done.took);
      fill();
    }
  }
};

void queue_jobs(fair_queue& q, const std::string& team, int n, double cost = 1, const std::string& model = "sdxl") {
  for (int i = 0; i < n; ++i)
    BOOST_REQUIRE(q.push({team + "-" + std::to_string(i), team, model, cost}));
}

bool backlogged(const fair_queue& q, const std::vector<std::string>& teams, int per_team) {
  for (auto& t : teams) {
    bool any = false;
    for (int i = 0; i < per_team && !any; ++i)
      any = q.contains(t + "-" + std::to_string(i));
    if (!any)
      return false;
  }
  return true;
}

} // namespace

BOOST_AUTO_TEST_SUITE(actors_fair_queue)

BOOST_AUTO_TEST_CASE(shares_follow_the_weights_in_engine_seconds) {
  fair_queue q;
  BOOST_REQUIRE(q.set_share("d", {2, 0}));
  std::vector<std::string> heavy{"a", "b", "c", "d"};
  for (auto& t : heavy)
    queue_jobs(q, t, 2000);
  fleet_sim sim{q, 16};
  // Renders of 0.8..1.2 engine seconds, charged at an estimate of 1.
  sim.actual = [](const queued_job& j) { return 0.8 + 0.4 * static_cast<double>(std::hash<std::string>{}(j.id) % 100) / 100.0; };
  sim.run([&] { return !backlogged(q, heavy, 2000); });
  double total = 0;
  for (auto& t : heavy)
    total += sim.seconds[t];
  for (auto& t : heavy) {
    double want = t == "d" ? 0.4 : 0.2;
    double got = sim.seconds[t] / total;
    BOOST_TEST(std::abs(got - want) <= 0.05 * want, t << ": share " << got << ", weight's share " << want);
  }
  BOOST_TEST(sim.most_busy == 16, "no slot idles while work waits");
}

BOOST_AUTO_TEST_CASE(a_video_counts_its_engine_seconds_not_one_job) {
  fair_queue q;
  queue_jobs(q, "video", 300, 10);
  queue_jobs(q, "image", 3000, 1);
  fleet_sim sim{q, 4};
  sim.run([&] { return !backlogged(q, {"video", "image"}, 3000); });
  double ratio = sim.seconds["video"] / sim.seconds["image"];
  BOOST_TEST(ratio > 0.95);
  BOOST_TEST(ratio < 1.05);
  BOOST_TEST(sim.jobs["image"] > 9 * sim.jobs["video"], "ten images for each video");
}

BOOST_AUTO_TEST_CASE(a_cap_bounds_a_teams_renders_and_leaves_the_rest_to_others) {
  fair_queue q;
  BOOST_REQUIRE(q.set_share("capped", {1, 2}));
  queue_jobs(q, "capped", 50);
  fleet_sim sim{q, 8};
  sim.fill();
  BOOST_TEST(sim.busy.size() == 2u, "six slots stay free for other teams");
  BOOST_TEST(q.running("capped") == 2);
  queue_jobs(q, "other", 10);
  sim.fill();
  BOOST_TEST(sim.busy.size() == 8u);
  BOOST_TEST(sim.jobs["other"] == 6);
  BOOST_TEST(!q.set_share("x", {0, 1}), "a weight must be positive");
  BOOST_TEST(!q.set_share("x", {1, -1}));
}

BOOST_AUTO_TEST_CASE(a_model_with_no_free_engine_holds_back_nothing) {
  fair_queue q;
  BOOST_REQUIRE(q.push({"a-flux", "a", "flux", 1}));  // first in, but no engine serves flux now
  BOOST_REQUIRE(q.push({"a-sdxl", "a", "sdxl", 1}));
  BOOST_REQUIRE(q.push({"b-sdxl", "b", "sdxl", 1}));
  auto sdxl_only = [](const std::string& m) { return m == "sdxl"; };
  std::set<std::string> got;
  for (int i = 0; i < 2; ++i) {
    auto j = q.pop(sdxl_only);
    BOOST_REQUIRE(j);
    got.insert(j->id);
  }
  BOOST_TEST((got == std::set<std::string>{"a-sdxl", "b-sdxl"}));
  BOOST_TEST(!q.pop(sdxl_only), "flux still waits");
  BOOST_TEST(q.pop([](const std::string&) { return true; })->id == "a-flux");
}

BOOST_AUTO_TEST_CASE(a_new_team_goes_ahead_of_a_hogs_backlog) {
  fair_queue q;
  queue_jobs(q, "hog", 1000);
  fleet_sim sim{q, 4};
  sim.run([&] { return sim.order.size() >= 100; });
  BOOST_REQUIRE(q.push({"new-0", "new", "sdxl", 1}));
  BOOST_REQUIRE(!sim.busy.empty());
  auto done = sim.busy.top();
  sim.busy.pop();
  q.finished(done.job.team, 1, 1);
  auto next = q.pop([](const std::string&) { return true; });
  BOOST_REQUIRE(next);
  BOOST_TEST(next->id == "new-0", "the newcomer is served at the next free slot");
}

BOOST_AUTO_TEST_CASE(a_teams_jobs_keep_their_order_and_a_failover_goes_first) {
  fair_queue q;
  queue_jobs(q, "a", 3);
  BOOST_TEST(!q.push({"a-1", "a", "sdxl", 1}), "queued already");
  auto any = [](const std::string&) { return true; };
  BOOST_TEST(q.pop(any)->id == "a-0");
  BOOST_REQUIRE(q.push_front({"a-0", "a", "sdxl", 1})); // its engine failed: it runs again, first
  auto places = q.places();
  BOOST_TEST(places.at("a-0").ahead == 0u);
  BOOST_TEST(places.at("a-2").ahead == 2u);
  BOOST_TEST(q.pop(any)->id == "a-0");
  BOOST_TEST(q.erase("a-1"));
  BOOST_TEST(!q.erase("a-1"));
  BOOST_TEST(q.places().count("a-1") == 0u);
  BOOST_TEST(q.pop(any)->id == "a-2");
  BOOST_TEST(!q.pop(any));
  BOOST_TEST(q.size() == 0u);
}

BOOST_AUTO_TEST_CASE(measured_render_times_correct_a_teams_tag) {
  // Both teams are charged an estimate of 1 s; slow's renders really take 2 s.
  fair_queue q;
  queue_jobs(q, "slow", 2000);
  queue_jobs(q, "fast", 2000);
  fleet_sim sim{q, 4};
  sim.actual = [](const queued_job& j) { return j.team == "slow" ? 2.0 : 1.0; };
  sim.run([&] { return !backlogged(q, {"slow", "fast"}, 2000); });
  double ratio = sim.seconds["slow"] / sim.seconds["fast"];
  BOOST_TEST(ratio > 0.95, "engine seconds stay even: " << ratio);
  BOOST_TEST(ratio < 1.05, "engine seconds stay even: " << ratio);
}

BOOST_AUTO_TEST_CASE(places_count_the_jobs_the_tags_put_ahead_and_their_seconds) {
  fair_queue q;
  queue_jobs(q, "a", 3);
  queue_jobs(q, "b", 3);
  BOOST_REQUIRE(q.set_share("b", {2, 0}));
  // Tags: a-0 and b-0 start at 0, b-1 at 0.5, a-1 and b-2 at 1, a-2 at 2; ties by admission.
  auto places = q.places();
  BOOST_TEST(places.size() == 6u);
  BOOST_TEST(places.at("a-0").ahead == 0u);
  BOOST_TEST(places.at("b-0").ahead == 1u);
  BOOST_TEST(places.at("b-1").ahead == 2u, "the heavier team's second job before the other's");
  BOOST_TEST(places.at("a-1").ahead == 3u);
  BOOST_TEST(places.at("b-2").ahead == 4u);
  BOOST_TEST(places.at("a-2").ahead == 5u);
  BOOST_TEST(places.at("a-2").seconds_ahead == 5.0, "each job ahead is an estimated engine second");
}

BOOST_AUTO_TEST_SUITE_END()
