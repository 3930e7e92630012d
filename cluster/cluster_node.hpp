#pragma once
// Everything that makes svcd a cluster node, started after its runtime and
// pipelines: the cluster gate on `--cluster-listen` (mutual TLS, each
// peer proven by its certificate), the node actor published behind it, the
// router to the other nodes, the membership in etcd, and the fronts the
// listeners serve through. Without `--etcd` none of it exists and svcd runs
// as a single node.

#include <memory>
#include <string>

#include "core/config.hpp"
#include "cluster/cluster_front.hpp"
#include "cluster/cluster_gate.hpp"
#include "cluster/cluster_table.hpp"
#include "cluster/membership.hpp"
#include "cluster/peer_router.hpp"
#include "cluster/shard_intake.hpp"
#include "cluster/shard_mover.hpp"

namespace svc::cluster {

/// Why the cluster options cannot work (a missing one, an unreadable file); empty when they can.
std::string cluster_config_error(const core::config& cfg);

/// Loads CAF's network layer into `caf_cfg` (the cluster gate speaks TLS
/// for it), with an application id that other releases' wire formats do not
/// share. Call before the actor system exists.
void configure_cluster_transport(caf::actor_system_config& caf_cfg);

class cluster_node {
public:
  /// Publishes the node actor and joins the cluster; nullptr with `error` set
  /// when the cluster listener cannot be bound. `api`, `admin`, `svc` and
  /// `table` outlive the node.
  static std::unique_ptr<cluster_node> start(const core::config& cfg, http::services& svc, actors::runtime& rt,
                                             http::exchange_handler& api,
                                             http::exchange_handler& admin, const std::string& api_url,
                                             const std::string& admin_url, cluster_table& table, std::string& error);
  /// Leaves etcd (ending the lease), stops forwarding and the node actor.
  ~cluster_node();

  http::exchange_handler& api_front() { return api_front_; }
  http::exchange_handler& admin_front() { return admin_front_; }

private:
  cluster_node(const core::config& cfg, http::services& svc, actors::runtime& rt, http::exchange_handler& api,
               http::exchange_handler& admin, cluster_table& table, clients::etcd_security etcd_security);

  http::services& svc_;
  std::shared_ptr<node_identities> identities_;
  /// Ends with the node, before the io_context its sockets use; the actors
  /// that dial through it (which end later, asynchronously) hold it weakly.
  std::shared_ptr<cluster_gate> gate_;
  caf::io::middleman_actor transport_; ///< CAF's connections, through the gate
  peer_router router_;
  cluster_front api_front_;
  cluster_front admin_front_;
  shard_intake_actor intake_;
  actors::node_actor entry_;
  shard_mover mover_;
  std::unique_ptr<membership> membership_;
};

} // namespace svc::cluster
