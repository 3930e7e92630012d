#pragma once
// Forwarding to the other nodes, for the HTTP side: one router actor keeps a
// link to each member's node actor (mutual TLS, reconnecting with backoff),
// forwards requests over it, and tracks what is in flight per peer, so that
// when a link goes down every request waiting on it fails at once (503
// `owner_unavailable`) instead of waiting for its deadline. The
// continuations wait here under tickets, like the rate-limit takes.

#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>

#include "actors/messages.hpp"
#include "http/parked_continuations.hpp"

namespace svc::http {

struct peer_router_options {
  std::string self_id;            ///< this node: never a peer
  caf::duration connect_timeout;  ///< one connection attempt
  caf::duration forward_timeout;  ///< one forwarded request (covers the longest `Prefer: wait`)
  std::chrono::milliseconds heartbeat{1000}; ///< how often each linked peer is pinged
  caf::duration peer_timeout;     ///< a peer that leaves a ping unanswered this long is down
  std::size_t max_in_flight = 4096; ///< per peer; past it requests fail at once (no unbounded mailbox)
};

class peer_router {
public:
  using waiting = parked_continuations<actors::forwarded_response>;

  /// Spawns the router; it connects to peers once it gets a view (`update`).
  peer_router(caf::actor_system& sys, boost::asio::io_context& io, peer_router_options options);
  /// Stops the router; continuations still waiting are dropped, never run.
  ~peer_router();
  peer_router(const peer_router&) = delete;
  peer_router& operator=(const peer_router&) = delete;

  /// Forwards `req` to node `node_id`; `answer` or `error` runs on an asio thread.
  void forward(const std::string& node_id, actors::forwarded_request req, waiting::on_answer answer,
               waiting::on_error error);
  /// The members or the map changed.
  void update(actors::cluster_view view);
  /// The router (for `/admin/cluster`).
  const actors::peer_router_actor& actor() const { return router_; }

private:
  std::shared_ptr<waiting> waiting_;
  actors::peer_router_actor router_;
};

} // namespace svc::http
