#pragma once
// The links to the other nodes: one router actor keeps a link to each
// member's node actor (through the cluster gate, reconnecting with backoff, pinged every
// heartbeat) and tells the forwarding table which peers are reachable, so
// that when a link goes down every request waiting on it fails at once (503
// `owner_unavailable`) instead of waiting for its deadline. Requests
// themselves go through the table, not the router (forwarding_table.hpp).

#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>

#include "actors/messages.hpp"
#include <caf/io/middleman_actor.hpp>

#include "cluster/cluster_gate.hpp"
#include "cluster/forwarding_table.hpp"

namespace svc::cluster {

struct peer_router_options {
  std::string self_id;            ///< this node: never a peer
  caf::io::middleman_actor transport; ///< connects to the peers, through the cluster gate
  std::weak_ptr<cluster_gate> gate; ///< told which node listens where before each connect
  caf::duration connect_timeout;  ///< one connection attempt
  std::chrono::steady_clock::duration forward_timeout; ///< one forwarded request (covers the longest `Prefer: wait`)
  std::chrono::milliseconds heartbeat{1000}; ///< how often each linked peer is pinged
  caf::duration peer_timeout;     ///< a peer that leaves a ping unanswered this long is down
  std::size_t max_in_flight = 4096; ///< per peer; past it requests fail at once (no unbounded mailbox)
};

class peer_router {
public:
  /// Spawns the router; it connects to peers once it gets a view (`update`).
  peer_router(caf::actor_system& sys, boost::asio::io_context& io, peer_router_options options);
  /// Stops the router; continuations still waiting are dropped, never run.
  ~peer_router();
  peer_router(const peer_router&) = delete;
  peer_router& operator=(const peer_router&) = delete;

  /// This node's own node actor: introduced to the peers it dials, and the sender of what it forwards.
  void introduce(actors::node_actor own_entry);
  /// Forwards `req` to node `node_id`; `answer` or `error` runs on an asio thread.
  void forward(const std::string& node_id, actors::forwarded_request req, forwarding_table::on_answer answer,
               forwarding_table::on_error error);
  /// Where the owners' answers are settled (by this node's node actor).
  forwarding_table& table() { return *table_; }
  /// The members or the map changed.
  void update(actors::cluster_view view);
  /// The router (for `/admin/cluster`).
  const actors::peer_router_actor& actor() const { return router_; }

private:
  std::shared_ptr<forwarding_table> table_;
  actors::peer_router_actor router_;
};

} // namespace svc::cluster
