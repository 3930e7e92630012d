// The campaign's cluster (`--cluster N`): a secured etcd and N svcd nodes of
// the e2e cluster fixture. The load goes through every node; once a cycle a
// random shard is moved to another node; the kill takes one node, or one
// time in `etcd_kill_odds` etcd itself (restarted on its data: its tokens are
// forgotten, so every node logs in again); after the restart the campaign
// waits for the cluster to form again and for every move to end, and then
// checks that the nodes agree on one owner per shard.
#include "deployment.hpp"

#include <chrono>
#include <thread>

#include <boost/json.hpp>

#include "checks.hpp"
#include "core/shard.hpp"
#include "support/cluster_fixture.hpp"
#include "support/json_util.hpp"
#include "support/wait.hpp"

namespace svc::chaos {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

// How long the moves running at a restart may take to end (a move whose new
// owner was killed fails only at its step's timeout, 60 s and more), and the
// nodes to agree on the map after it.
constexpr auto moves_end_within = 150s;
constexpr auto map_agreed_within = 15s;
constexpr int etcd_kill_odds = 5;

class cluster_nodes final : public deployment {
public:
  cluster_nodes(int count, const std::vector<std::string>& args) : cluster_{count, args} {}

  std::vector<load_target> targets() const override {
    std::vector<load_target> out;
    for (auto& n : cluster_.nodes)
      out.push_back({n->api_url(), n->admin_url(), n->admin_token()});
    return out;
  }
  e2e::svcd_process& front() override { return *cluster_.nodes.front(); }
  std::vector<std::string> data_dirs() const override {
    std::vector<std::string> out;
    for (auto& n : cluster_.nodes)
      out.push_back(n->data_dir());
    return out;
  }

  std::string owner_of(const std::string& team_id) const override {
    return cluster_.ids[cluster_.owner_of_team(team_id)];
  }

  std::string stir(std::mt19937_64& rng) override {
    auto shard = std::uniform_int_distribution<int>{0, core::shard_count - 1}(rng);
    auto via = pick(rng);
    // Any node but the owner the map names (a move to the owner itself is a 400).
    std::string owner;
    try {
      owner = std::string{cluster_.status(via).at("owners").as_array().at(static_cast<std::size_t>(shard)).as_string()};
    } catch (const std::exception&) {
      return "no move: the map of " + cluster_.ids[via] + " could not be read";
    }
    std::vector<std::string> others;
    for (auto& id : cluster_.ids)
      if (id != owner)
        others.push_back(id);
    auto to = others[std::uniform_int_distribution<std::size_t>{0, others.size() - 1}(rng)];
    auto h = cluster_.admin_auth(via);
    h["Content-Type"] = "application/json";
    try {
      auto r = cluster_.admin(via).request("POST", "/admin/shards/" + std::to_string(shard) + "/move", h,
                                           json::serialize(json::object{{"to", to}}));
      // 409: another move runs there, or `to` holds it already; 503: the owner is frozen or away.
      return "move of shard " + std::to_string(shard) + " to " + to + ": " + std::to_string(r.status);
    } catch (const std::exception&) {
      return "move of shard " + std::to_string(shard) + ": no answer";
    }
  }

  std::string kill_one(std::mt19937_64& rng) override {
    etcd_killed_ = std::uniform_int_distribution<int>{1, etcd_kill_odds}(rng) == 1;
    if (etcd_killed_) {
      cluster_.etcd.kill();
      return "etcd";
    }
    killed_ = pick(rng);
    cluster_.nodes[killed_]->kill9();
    return cluster_.ids[killed_];
  }

  void restart() override {
    if (etcd_killed_) {
      cluster_.etcd.restart();
    } else {
      auto& node = *cluster_.nodes[killed_];
      node.start();
      if (!wait_ready(node))
        throw std::runtime_error(cluster_.ids[killed_] + ": GET /readyz did not answer 200 within 30 s\n" + node.log_tail());
    }
    cluster_.wait_formed();
    if (!e2e::wait_until([&] { return moves_running().empty(); }, moves_end_within, 100ms))
      throw std::runtime_error("moves still running " + std::to_string(moves_end_within.count()) +
                               " s after the restart: " + moves_running());
  }

  // No shard is served by two nodes: once the map has settled, every node
  // names the same owner for each shard, and each owner is a member.
  void check(check_context& cx) override {
    std::string disagreement;
    bool agreed = e2e::wait_until(
      [&] {
        disagreement.clear();
        auto first = cluster_.status(0);
        for (std::size_t i = 1; i < cluster_.nodes.size(); ++i) {
          auto other = cluster_.status(i);
          if (other.at("owners") != first.at("owners") || other.at("map_revision") != first.at("map_revision"))
            disagreement = cluster_.ids[i] + " has map revision " + json::serialize(other.at("map_revision")) +
                           ", " + cluster_.ids[0] + " has " + json::serialize(first.at("map_revision"));
        }
        return disagreement.empty();
      },
      map_agreed_within, 100ms);
    if (!agreed)
      cx.report("one-owner-per-shard", "map", disagreement);
    auto owners = cluster_.status(0).at("owners").as_array();
    for (std::size_t shard = 0; shard < owners.size(); ++shard) {
      auto owner = std::string{owners[shard].as_string()};
      if (std::find(cluster_.ids.begin(), cluster_.ids.end(), owner) == cluster_.ids.end())
        cx.report("one-owner-per-shard", "shard " + std::to_string(shard), "owned by " + owner + ", not a member");
    }
  }

  std::string stop() override {
    std::string why;
    for (std::size_t i = 0; i < cluster_.nodes.size(); ++i) {
      auto& n = *cluster_.nodes[i];
      if (!n.running())
        continue;
      if (int status = n.stop(); status != 0)
        why += "SIGTERM ended " + cluster_.ids[i] + " with status " + std::to_string(status) + "\n" + n.log_tail();
    }
    return why;
  }

  std::string keep() override {
    std::string where;
    for (std::size_t i = 0; i < cluster_.nodes.size(); ++i) {
      cluster_.nodes[i]->keep_data_dir();
      where += (where.empty() ? "" : ", ") + cluster_.ids[i] + " " + cluster_.nodes[i]->data_dir();
    }
    return where + " (svcd.log in each; etcd's log: " + cluster_.etcd.log_path() + ")";
  }

private:
  std::size_t pick(std::mt19937_64& rng) const {
    return std::uniform_int_distribution<std::size_t>{0, cluster_.nodes.size() - 1}(rng);
  }

  // The moves some node still runs, as "node: shard -> to" items; empty when
  // none. Only the moving node's side counts: the receiving side of a move
  // whose old owner was killed shows it "moving" for good (docs/cluster.md,
  // "Limits"), while the old owner, restarted, serves the shard on.
  std::string moves_running() const {
    std::string running;
    for (std::size_t i = 0; i < cluster_.nodes.size(); ++i) {
      auto status = cluster_.status(i); // outlives the loop over its moves
      for (auto& m : status.at("moves").as_array())
        if (m.at("state").as_string() == "moving" && m.at("to").as_string() != cluster_.ids[i])
          running += cluster_.ids[i] + ": " + json::serialize(m.at("shard")) + " -> " +
                     std::string{m.at("to").as_string()} + "; ";
    }
    return running;
  }

  e2e::cluster_fixture cluster_;
  std::size_t killed_ = 0;
  bool etcd_killed_ = false;
};

} // namespace

std::unique_ptr<deployment> cluster_of(int nodes, const std::vector<std::string>& svcd_args) {
  return std::make_unique<cluster_nodes>(nodes, svcd_args);
}

} // namespace svc::chaos
