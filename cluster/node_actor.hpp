#pragma once
// The owner's side of forwarding: the node actor other nodes address. It
// turns a forwarded request back into an HTTP request and runs it through
// this node's own pipeline on an asio thread, so a routed request is
// answered exactly as one a client sent here (auth, rate limit,
// idempotency, ledger and persistence all run on the owner). It serves
// only nodes the cluster gate proved, each as the node it proved: a hello
// names the sender itself, and shard messages go to the intake with their
// sender, which takes them only from the shard's owner.

#include <optional>

#include <boost/asio/io_context.hpp>

#include "actors/messages.hpp"
#include "cluster/forwarding_table.hpp"
#include "cluster/node_identities.hpp"
#include "cluster/shard_intake.hpp"
#include "http/transport.hpp"

namespace svc::cluster {

/// What the node actor runs requests through: both listeners' fronts (which
/// answer 503 for a shard this node does not answer for) and the io_context
/// of their threads (all outlive the actor).
struct node_actor_links {
  http::exchange_handler* api = nullptr;
  http::exchange_handler* admin = nullptr;
  boost::asio::io_context* io = nullptr;
  std::size_t body_limit = 0; ///< a forwarded body past this is refused as too large
  actors::peer_router_actor router; ///< learns of the peers that dial this node
  shard_intake_actor intake;        ///< takes the shards that move here
  forwarding_table* forwards = nullptr; ///< settles the answers to the requests this node forwarded
  const node_identities* identities = nullptr; ///< who sent a message: only proven nodes are served
};

/// Spawns the node actor.
actors::node_actor spawn_node_actor(caf::actor_system& sys, node_actor_links links);

/// The HTTP request a forwarded request describes; nullopt if it is not one
/// (an unknown method, a target that is not a path, odd fields).
std::optional<http::http_request> to_http_request(const actors::forwarded_request& r);

/// The client a forwarded request names, as the pipeline takes it; nullopt
/// unless its request id is a `req_` id (it goes into answers, logs and
/// stored records) and its client is an address and that address's key.
std::optional<http::peer_info> to_peer_info(const actors::forwarded_request& r);

/// What a node forwards for a request it accepted.
actors::forwarded_request to_forwarded_request(const http::http_request& req, const http::peer_info& peer,
                                               std::string request_id, bool admin);

} // namespace svc::cluster
