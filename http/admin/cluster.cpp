// GET /admin/cluster: how this node sees its cluster. A single node says so.
#include <map>

#include <boost/json.hpp>

#include "http/actor_call.hpp"
#include "http/admin/admin_handlers.hpp"
#include "http/respond.hpp"

namespace svc::http {
namespace json = boost::json;

namespace {

json::object node_json(const actors::node_info& n) {
  return {{"id", n.id}, {"cluster_address", n.cluster_address}, {"api_url", n.api_url}, {"admin_url", n.admin_url}};
}

json::object status_json(const actors::cluster_status& s) {
  std::map<std::string, int64_t> shards;
  for (auto& owner : s.view.map.owners)
    ++shards[owner];
  json::array nodes;
  for (auto& n : s.view.nodes) {
    auto o = node_json(n);
    o["shards"] = shards[n.id];
    nodes.push_back(std::move(o));
  }
  json::array peers;
  for (auto& p : s.peers)
    peers.push_back({{"id", p.node.id},
                     {"cluster_address", p.node.cluster_address},
                     {"state", p.state},
                     {"in_flight", p.in_flight},
                     {"forwarded", p.forwarded},
                     {"failed", p.failed},
                     {"last_error", p.last_error}});
  json::array owners; // owners[shard]: the node holding it
  for (auto& owner : s.view.map.owners)
    owners.emplace_back(owner);
  json::array moves;
  for (auto& m : s.moves)
    moves.push_back(shard_move_json(m));
  json::object shards_per_node;
  for (auto& [id, count] : shards)
    shards_per_node[id] = count;
  return {{"clustered", true},
          {"node_id", s.node_id},
          {"map_revision", s.view.map.revision},
          {"shards_per_node", std::move(shards_per_node)},
          {"owners", std::move(owners)},
          {"nodes", std::move(nodes)},
          {"peers", std::move(peers)},
          {"moves", std::move(moves)}};
}

} // namespace

void get_cluster(const context_ptr& ctx) {
  if (!ctx->svc.cluster)
    return reply_json(ctx, 200, {{"clustered", false}});
  ask<actors::cluster_status>(
    ctx, ctx->svc.cluster, [ctx](actors::cluster_status& s) { reply_json(ctx, 200, status_json(s)); },
    actors::list_atom::value);
}

} // namespace svc::http
