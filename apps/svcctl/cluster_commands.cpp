// shard move | node drain | node add: moving shards between the nodes of a
// cluster. Each move is asked of the node svcctl talks to, which routes it
// to the shard's owner, and followed until the new owner serves the shard.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <thread>

#include "apps/svcctl/admin_client.hpp"
#include "apps/svcctl/command.hpp"

namespace svc::ctl {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

constexpr auto poll_interval = 200ms;
constexpr auto longest_move = std::chrono::minutes{30};

std::string move_path(int64_t shard) { return "/admin/shards/" + std::to_string(shard) + "/move"; }

// Moves `shard` to `to` and waits until the new owner serves it (or the move
// failed); prints the move's last state as one JSON line; returns the exit code.
int move_and_follow(const global_options& g, int64_t shard, const std::string& to) {
  int exit = exit_code::ok;
  if (!admin_json(g, "POST", move_path(shard), {{"to", to}}, exit))
    return exit;
  auto deadline = std::chrono::steady_clock::now() + longest_move;
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(poll_interval);
    // 404: the map names the new owner, which is still resuming the shard;
    // 503 owner_unavailable: this node asked the old owner, whose map moved on.
    auto move = admin_json(g, "GET", move_path(shard), {}, exit, true);
    if (exit != exit_code::ok)
      return exit;
    if (!move || !move->is_object())
      continue;
    auto state = move->as_object().if_contains("state");
    if (state && state->is_string() && state->as_string() != "moving") {
      std::cout << json::serialize(*move) << "\n";
      return state->as_string() == "failed" ? exit_code::refused : exit_code::ok;
    }
  }
  return print_error("timeout", "shard " + std::to_string(shard) + " is still moving after 30 minutes",
                     exit_code::refused);
}

// The cluster as the node svcd talks to sees it: each shard's owner and the live members.
struct cluster_shape {
  std::vector<std::string> owners;
  std::vector<std::string> members;
};

std::optional<cluster_shape> read_shape(const global_options& g, int& exit) {
  auto status = admin_json(g, "GET", "/admin/cluster", {}, exit);
  if (!status)
    return std::nullopt;
  auto& o = status->as_object();
  if (!o.at("clustered").as_bool()) {
    exit = print_error("not_clustered", "this svcd is a single node (no --etcd)", exit_code::refused);
    return std::nullopt;
  }
  cluster_shape shape;
  for (auto& owner : o.at("owners").as_array())
    shape.owners.emplace_back(owner.as_string());
  for (auto& node : o.at("nodes").as_array())
    shape.members.emplace_back(node.at("id").as_string());
  return shape;
}

// Runs the moves one after another; stops at the first that fails.
int run_moves(const global_options& g, const std::vector<std::pair<int64_t, std::string>>& moves) {
  for (auto& [shard, to] : moves)
    if (auto exit = move_and_follow(g, shard, to); exit != exit_code::ok)
      return exit;
  return exit_code::ok;
}

bool is_member(const cluster_shape& shape, const std::string& node) {
  return std::find(shape.members.begin(), shape.members.end(), node) != shape.members.end();
}

// Every shard of `node` to the other members, dealt round-robin.
int drain_node(const global_options& g, const std::string& node) {
  int exit = exit_code::ok;
  auto shape = read_shape(g, exit);
  if (!shape)
    return exit;
  std::vector<std::string> others;
  for (auto& m : shape->members)
    if (m != node)
      others.push_back(m);
  if (others.empty())
    return print_error("no_other_node", "no other live member to take the shards of " + node, exit_code::refused);
  std::vector<std::pair<int64_t, std::string>> moves;
  for (std::size_t shard = 0; shard < shape->owners.size(); ++shard)
    if (shape->owners[shard] == node)
      moves.emplace_back(shard, others[moves.size() % others.size()]);
  return run_moves(g, moves);
}

// Shards to `node` from the members holding the most, until it holds its
// share: 256 / members (rounded down).
int add_node(const global_options& g, const std::string& node) {
  int exit = exit_code::ok;
  auto shape = read_shape(g, exit);
  if (!shape)
    return exit;
  if (!is_member(*shape, node))
    return print_error("not_a_member", node + " is not a live member (start it with --etcd first)", exit_code::refused);
  std::map<std::string, std::vector<int64_t>> held;
  for (std::size_t shard = 0; shard < shape->owners.size(); ++shard)
    held[shape->owners[shard]].push_back(static_cast<int64_t>(shard));
  auto share = shape->owners.size() / shape->members.size();
  std::vector<std::pair<int64_t, std::string>> moves;
  for (auto have = held[node].size(); have < share; ++have) {
    auto richest = std::max_element(held.begin(), held.end(), [&](const auto& a, const auto& b) {
      return (a.first == node ? 0 : a.second.size()) < (b.first == node ? 0 : b.second.size());
    });
    if (richest->first == node || richest->second.empty())
      break;
    moves.emplace_back(richest->second.back(), node);
    richest->second.pop_back();
  }
  return run_moves(g, moves);
}

int64_t shard_of(const po::variables_map& vm) {
  auto shard = vm["shard"].as<int64_t>();
  if (shard < 0 || shard > 255)
    throw usage_error("SHARD is a number from 0 to 255");
  return shard;
}

} // namespace

std::vector<command> cluster_commands() {
  return {
    {"shard move", "[--shard] SHARD --to NODE", "move a shard to another node and wait until that node serves it",
     [](po::options_description& d) {
       d.add_options()("shard", po::value<int64_t>()->required(), "the shard, 0..255")(
         "to", po::value<std::string>()->required(), "the node id to move it to");
     },
     [](const po::variables_map& vm, const global_options& g) { return move_and_follow(g, shard_of(vm), text_of(vm, "to")); },
     {"shard"}},
    {"node drain", "[--node] NODE", "move every shard of NODE to the other nodes, one at a time",
     [](po::options_description& d) { d.add_options()("node", po::value<std::string>()->required(), "a node id"); },
     [](const po::variables_map& vm, const global_options& g) { return drain_node(g, text_of(vm, "node")); },
     {"node"}},
    {"node add", "[--node] NODE", "move shards to the new member NODE until it holds 256/N of them, one at a time",
     [](po::options_description& d) { d.add_options()("node", po::value<std::string>()->required(), "a node id"); },
     [](const po::variables_map& vm, const global_options& g) { return add_node(g, text_of(vm, "node")); },
     {"node"}},
  };
}

} // namespace svc::ctl
