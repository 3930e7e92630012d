#include "cluster/peer_router.hpp"
#include "cluster/retry_backoff.hpp"

#include <algorithm>
#include <map>

#include <caf/io/middleman_actor.hpp>

#include "core/log.hpp"

namespace svc::cluster {
namespace {

using namespace std::chrono_literals;

struct peer_link {
  actors::node_info info;
  actors::node_actor handle;
  std::string state = "connecting";
  uint64_t generation = 0; ///< connection attempts; answers and retries of older ones are ignored
  std::chrono::milliseconds backoff = first_backoff;
  std::string last_error;
};

/// Moves shown by `/admin/cluster`: the latest state of the last few.
constexpr std::size_t moves_shown = 32;

struct peer_router_state {
  actors::node_actor own_entry; ///< introduced to the peers this node dials
  actors::cluster_view view;
  std::map<std::string, peer_link> peers;
  std::vector<actors::shard_move_status> moves; ///< oldest first
};

using peer_router_self = actors::peer_router_actor::stateful_pointer<peer_router_state>;

using table_ptr = std::shared_ptr<forwarding_table>;

void connect(peer_router_self self, const table_ptr& table, const std::string& node_id, const peer_router_options& options);

// Of two nodes the one with the lower id dials; the other waits for its hello.
bool dials(const peer_router_options& options, const std::string& peer_id) { return options.self_id < peer_id; }

// `peer` is linked through `handle`.
void link_up(peer_router_self self, forwarding_table& table, peer_link& peer, actors::node_actor handle) {
  peer.handle = std::move(handle);
  self->monitor(peer.handle);
  table.set_route(peer.info.id, peer.handle);
  peer.state = "up";
  peer.backoff = first_backoff;
  peer.last_error.clear();
  ++peer.generation; // retries armed before are void
  core::log_info("cluster", "linked to node " + peer.info.id + " at " + peer.info.cluster_address);
}

void retry_later(peer_router_self self, peer_link& peer) {
  self->delayed_send(self, peer.backoff, actors::retry_atom::value, peer.info.id, peer.generation);
  peer.backoff = next_backoff(peer.backoff);
}

void connect(peer_router_self self, const table_ptr& table, const std::string& node_id, const peer_router_options& options) {
  auto& peer = self->state.peers.at(node_id);
  auto generation = ++peer.generation;
  peer.state = "connecting";
  auto& address = peer.info.cluster_address;
  auto colon = address.rfind(':');
  uint16_t port = 0;
  try {
    port = colon == std::string::npos ? 0 : static_cast<uint16_t>(std::stoul(address.substr(colon + 1)));
  } catch (const std::exception&) {
  }
  if (port == 0) {
    peer.state = "down";
    peer.last_error = "no HOST:PORT in its cluster address";
    return;
  }
  auto host = address.substr(0, colon);
  if (auto gate = options.gate.lock())
    gate->expect(host, port, node_id); // the certificate there must name it
  self->request(options.transport, options.connect_timeout, caf::connect_atom::value, host, port)
    .then(
      [=](const caf::node_id&, caf::strong_actor_ptr& ptr, const std::set<std::string>& interface) {
        auto it = self->state.peers.find(node_id);
        if (it == self->state.peers.end() || it->second.generation != generation)
          return;
        auto& p = it->second;
        auto expected = self->system().message_types<actors::node_actor>();
        if (!ptr || !std::includes(interface.begin(), interface.end(), expected.begin(), expected.end())) {
          p.state = "down";
          p.last_error = "its node actor speaks another interface (another release?)";
          core::log_warn("cluster", "node " + node_id + ": " + p.last_error);
          return retry_later(self, p);
        }
        link_up(self, *table, p, caf::actor_cast<actors::node_actor>(ptr));
        self->send(p.handle, actors::hello_atom::value, options.self_id,
                   caf::actor_cast<caf::strong_actor_ptr>(self->state.own_entry));
      },
      [=](caf::error& err) {
        auto it = self->state.peers.find(node_id);
        if (it == self->state.peers.end() || it->second.generation != generation)
          return;
        auto& p = it->second;
        p.state = "down";
        p.last_error = self->system().render(err);
        retry_later(self, p);
      });
}

// Pings every linked peer. CAF's own heartbeats are off: with them on, the
// first heartbeat after one peer died closed the links between the others as
// well (observed with 3 nodes on CAF 0.17.6), so liveness is checked here.
void ping_peers(peer_router_self self, const table_ptr& table, const peer_router_options& options) {
  for (auto& [id, peer] : self->state.peers) {
    if (!peer.handle)
      continue;
    auto node_id = id;
    auto handle = peer.handle;
    self->request(peer.handle, options.peer_timeout, actors::ping_atom::value)
      .then(
        [=](bool) {
          auto it = self->state.peers.find(node_id);
          if (it == self->state.peers.end() || it->second.handle != handle || it->second.state == "up")
            return;
          it->second.state = "up";
          it->second.last_error.clear();
          table->set_route(node_id, handle);
          core::log_info("cluster", "node " + node_id + " answers again");
        },
        [=](caf::error&) {
          auto it = self->state.peers.find(node_id);
          if (it == self->state.peers.end() || it->second.handle != handle || it->second.state != "up")
            return;
          auto& p = it->second;
          core::log_warn("cluster", "node " + node_id + " left a heartbeat unanswered; failing its "
                                      + std::to_string(table->counts(node_id).in_flight) + " requests in flight");
          table->set_route(node_id, actors::node_actor{});
          p.state = "down";
          p.last_error = "no answer to a heartbeat within the cluster timeout";
        });
  }
  self->delayed_send(self, options.heartbeat, actors::heartbeat_atom::value);
}

actors::peer_router_actor::behavior_type peer_router_behavior(peer_router_self self, table_ptr table,
                                                              peer_router_options options) {
  self->delayed_send(self, options.heartbeat, actors::heartbeat_atom::value);
  self->set_down_handler([=](caf::down_msg& down) {
    for (auto& [id, peer] : self->state.peers) {
      if (!peer.handle || peer.handle.address() != down.source)
        continue;
      core::log_warn("cluster", "link to node " + id + " is down (" + self->system().render(down.reason)
                                  + "); failing its " + std::to_string(table->counts(id).in_flight)
                                  + " requests in flight");
      table->set_route(id, actors::node_actor{});
      peer.handle = nullptr;
      peer.state = "down";
      peer.last_error = self->system().render(down.reason);
      ++peer.generation;
      if (dials(options, id))
        retry_later(self, peer);
    }
  });
  return {
    [=](actors::changed_atom, actors::cluster_view& view) {
      for (auto& node : view.nodes) {
        if (node.id == options.self_id)
          continue;
        auto it = self->state.peers.find(node.id);
        bool moved = it != self->state.peers.end() && it->second.info.cluster_address != node.cluster_address;
        if (it != self->state.peers.end() && (!moved || !dials(options, node.id))) {
          it->second.info = node; // its URLs may have changed; a node that dials us says hello when it moved
          continue;
        }
        if (moved) { // it restarted elsewhere: the old link leads nowhere
          table->set_route(node.id, actors::node_actor{});
          self->state.peers.erase(it);
        }
        self->state.peers[node.id].info = node;
        if (dials(options, node.id))
          connect(self, table, node.id, options);
      }
      // A node whose lease ended is gone from the view. While its link is up
      // it still answers (a lease can lapse while etcd is unreachable); once
      // its link is down it is forgotten.
      for (auto it = self->state.peers.begin(); it != self->state.peers.end();) {
        bool listed = std::any_of(view.nodes.begin(), view.nodes.end(),
                                  [&](const actors::node_info& n) { return n.id == it->first; });
        if (!listed && it->second.state != "up") {
          table->forget(it->first);
          it = self->state.peers.erase(it);
        } else
          ++it;
      }
      self->state.view = std::move(view);
    },
    [=](actors::hello_atom, const std::string& node_id, caf::strong_actor_ptr& entry) {
      if (node_id == options.self_id || dials(options, node_id) || !entry)
        return;
      auto& peer = self->state.peers[node_id];
      if (peer.info.id.empty())
        peer.info.id = node_id; // the view lists it soon
      if (peer.handle)
        self->demonitor(peer.handle.address());
      link_up(self, *table, peer, caf::actor_cast<actors::node_actor>(entry));
    },
    [=](actors::register_atom, actors::node_actor& entry) { self->state.own_entry = std::move(entry); },
    [=](actors::heartbeat_atom) {
      ping_peers(self, table, options);
      if (auto expired = table->expire(forwarding_table::clock::now()))
        core::log_warn("cluster", std::to_string(expired) + " forwarded requests got no answer in time; failed them");
    },
    [=](actors::retry_atom, const std::string& node_id, uint64_t generation) {
      auto it = self->state.peers.find(node_id);
      if (it != self->state.peers.end() && it->second.generation == generation && it->second.state != "up")
        connect(self, table, node_id, options);
    },
    [=](actors::list_atom) {
      actors::cluster_status status;
      status.node_id = options.self_id;
      status.view = self->state.view;
      for (auto& [id, peer] : self->state.peers) {
        auto counts = table->counts(id);
        status.peers.push_back({peer.info, peer.state, counts.in_flight, counts.forwarded, counts.failed,
                                peer.last_error});
      }
      status.moves = self->state.moves;
      return status;
    },
    [=](actors::progress_atom, actors::shard_move_status& move) {
      auto& moves = self->state.moves;
      // A move's later state replaces its earlier one (one move of a shard
      // runs at a time), wherever it is in the list: the reports of moves
      // coming here, and of others, come in between.
      auto last = std::find_if(moves.rbegin(), moves.rend(), [&](auto& m) { return m.shard == move.shard; });
      if (last != moves.rend() && last->to == move.to && last->state != "failed" && last->state != "done")
        *last = std::move(move);
      else
        moves.push_back(std::move(move));
      if (moves.size() > moves_shown)
        moves.erase(moves.begin());
    },
    [=](actors::resolve_atom, const std::string& node_id) -> caf::strong_actor_ptr {
      auto it = self->state.peers.find(node_id);
      if (it == self->state.peers.end() || it->second.state != "up")
        return nullptr;
      return caf::actor_cast<caf::strong_actor_ptr>(it->second.handle);
    },
  };
}

} // namespace

peer_router::peer_router(caf::actor_system& sys, boost::asio::io_context& io, peer_router_options options)
  : table_{std::make_shared<forwarding_table>(
      io, std::chrono::duration_cast<forwarding_table::clock::duration>(options.forward_timeout), options.max_in_flight)},
    router_{sys.spawn(peer_router_behavior, table_, std::move(options))} {}

peer_router::~peer_router() {
  table_->close();
  caf::anon_send_exit(router_, caf::exit_reason::user_shutdown);
}

void peer_router::introduce(actors::node_actor own_entry) {
  table_->set_own_entry(own_entry);
  caf::anon_send(router_, actors::register_atom::value, std::move(own_entry));
}

void peer_router::forward(const std::string& node_id, actors::forwarded_request req, forwarding_table::on_answer answer,
                          forwarding_table::on_error error) {
  table_->forward(node_id, std::move(req), std::move(answer), std::move(error));
}

void peer_router::update(actors::cluster_view view) {
  caf::anon_send(router_, actors::changed_atom::value, std::move(view));
}

} // namespace svc::cluster
