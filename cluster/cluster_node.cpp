#include "cluster/cluster_node.hpp"

#include <atomic>
#include <fstream>
#include <optional>

#include <caf/binary_serializer.hpp>
#include <caf/io/middleman.hpp>
#include <caf/scoped_actor.hpp>

#include "clients/password_file.hpp"
#include "core/log.hpp"
#include "cluster/gated_middleman.hpp"
#include "cluster/node_actor.hpp"
#include "cluster/node_certificate.hpp"

namespace svc::cluster {
// The fronts and the node actor speak http's request vocabulary.
using http::exchange_handler;
using http::listener_kind;
using http::services;
namespace {

// The CAF application id of this wire format: nodes of releases whose
// messages differ refuse each other at connect instead of misreading.
constexpr const char* wire_identifier = "svc-cluster-v1";

// Connections the gate accepts at once: a link per member, and room for
// those a restarting member leaves behind until they time out.
constexpr std::size_t max_peer_connections = 256;

// The longest `Prefer: wait` a forwarded read may hold (job_reads.cpp caps it at 60 s).
constexpr auto longest_wait = std::chrono::seconds{60};
// How long a moved shard's rows stay on its old owner: the requests that
// were on their way here when the map changed are forwarded meanwhile.
constexpr auto shard_move_grace = std::chrono::seconds{10};

// Bytes of a serialized CAF node id, which begins the payloads the gate binds nodes by.
std::size_t serialized_node_id_size(caf::actor_system& sys) {
  std::vector<char> bytes;
  caf::binary_serializer sink{sys, bytes};
  if (auto err = sink(sys.node()))
    return 0;
  return bytes.size();
}

// TLS and login toward etcd from --etcd-ca, --etcd-cert, --etcd-key,
// --etcd-user and --etcd-password-file; nothing, with `error` set, when they
// do not make a whole.
std::optional<clients::etcd_security> etcd_security_of(const core::config& cfg, std::string& error) {
  std::string password;
  if (!cfg.etcd_password_file.empty()) {
    auto read = clients::read_password_file("etcd-password-file", cfg.etcd_password_file, error);
    if (!read)
      return std::nullopt;
    password = std::move(*read);
  }
  if (cfg.etcd_user.empty() != cfg.etcd_password_file.empty()) {
    error = "--etcd-user and --etcd-password-file go together";
    return std::nullopt;
  }
  try {
    return clients::etcd_security{{cfg.etcd_ca, cfg.etcd_cert, cfg.etcd_key}, cfg.etcd_user, std::move(password)};
  } catch (const std::runtime_error& e) {
    error = e.what();
    return std::nullopt;
  }
}

// Asks the hand-over actor to take up every shard `map` gives `self_id`
// (answers are not awaited: a failed step is logged by the step).
void adopt_own_shards(const actors::shard_handover_actor& handover, const actors::shard_map& map,
                      const std::string& self_id) {
  int count = 0;
  for (std::size_t shard = 0; shard < map.owners.size(); ++shard)
    if (map.owners[shard] == self_id) {
      caf::anon_send(handover, actors::adopt_atom::value, static_cast<core::shard_id>(shard));
      ++count;
    }
  core::log_info("cluster", "resuming the work of the " + std::to_string(count) + " shards the map gives this node");
}

std::pair<std::string, uint16_t> split_host_port(const std::string& host_port) {
  auto colon = host_port.rfind(':');
  return {host_port.substr(0, colon), static_cast<uint16_t>(std::stoul(host_port.substr(colon + 1)))};
}

} // namespace

std::string cluster_config_error(const core::config& cfg) {
  if (cfg.node_id.empty())
    return "--etcd needs --node-id";
  for (auto [option, path] : {std::pair{"--cluster-ca", &cfg.cluster_ca}, std::pair{"--cluster-cert", &cfg.cluster_cert},
                              std::pair{"--cluster-key", &cfg.cluster_key}}) {
    // Without all three CAF would speak anonymous TLS: encrypted, but open to anyone.
    if (path->empty())
      return std::string{"--etcd needs "} + option + ": nodes talk only over mutual TLS";
    if (!std::ifstream{*path})
      return std::string{"cannot read "} + option + " " + *path;
  }
  std::string error;
  auto named = node_named_by_file(cfg.cluster_cert, error);
  if (!named)
    return "--cluster-cert: " + error;
  if (*named != cfg.node_id)
    return "--cluster-cert names node " + *named + ", not --node-id " + cfg.node_id;
  if (cfg.cluster_heartbeat < std::chrono::milliseconds{10} || cfg.cluster_timeout < std::chrono::milliseconds{10})
    return "--cluster-heartbeat and --cluster-timeout must be at least 10ms";
  auto colon = cfg.cluster_listen.rfind(':');
  if (colon == std::string::npos || colon == 0)
    return "--cluster-listen must be HOST:PORT";
  try {
    if (std::stoul(cfg.cluster_listen.substr(colon + 1)) > 65535)
      return "--cluster-listen must be HOST:PORT";
  } catch (const std::exception&) {
    return "--cluster-listen must be HOST:PORT";
  }
  return {};
}

void configure_cluster_transport(caf::actor_system_config& caf_cfg) {
  caf_cfg.load<caf::io::middleman>();
  caf_cfg.set("middleman.app-identifiers", std::vector<std::string>{wire_identifier});
  // CAF's heartbeats stay off (peer_router.cpp pings the peers instead).
  // Messages from peers are read on CAF's network thread, not handed to a
  // BASP worker on the scheduler: each hand-off woke a worker thread, and
  // its delivery to the node actor (a broker, on the network thread) woke
  // the network thread again, for every forwarded request and answer.
  caf_cfg.set("middleman.workers", 0);
}

cluster_node::cluster_node(const core::config& cfg, services& svc, actors::runtime& rt, exchange_handler& api,
                           exchange_handler& admin, cluster_table& table, clients::etcd_security etcd_security)
  : svc_{svc},
    identities_{std::make_shared<node_identities>()},
    gate_{std::make_shared<cluster_gate>(
      svc.io,
      cluster_gate_options{cfg.node_id, cfg.cluster_ca, cfg.cluster_cert, cfg.cluster_key, max_peer_connections,
                           std::chrono::duration_cast<std::chrono::milliseconds>(cfg.cluster_timeout)},
      identities_)},
    transport_{spawn_gated_middleman(svc.system, gate_)},
    router_{svc.system, svc.io,
            peer_router_options{cfg.node_id, transport_, gate_, caf::duration{cfg.cluster_timeout},
                                cfg.request_deadline + longest_wait,
                                std::chrono::duration_cast<std::chrono::milliseconds>(cfg.cluster_heartbeat),
                                caf::duration{cfg.cluster_timeout}}},
    api_front_{api, listener_kind::api, svc, table, router_},
    admin_front_{admin, listener_kind::admin, svc, table, router_},
    intake_{spawn_shard_intake(svc.system, {&table, &rt.tables(), &rt.blobs(), rt.handles().store,
                                            rt.handles().handover, router_.actor(), cfg.etcd, etcd_security})},
    entry_{spawn_node_actor(svc.system,
                            {&api_front_, &admin_front_, &svc.io, cfg.body_limit, router_.actor(), intake_,
                             &router_.table(), identities_.get()})},
    mover_{{&svc.system, &table, &rt.tables(), &rt.blobs(), rt.handles().store, rt.handles().handover,
            router_.actor(), cfg.etcd, etcd_security, cfg.request_deadline + longest_wait, shard_move_grace}} {
  router_.introduce(entry_);
  svc.move_shard = [this](uint16_t shard, const std::string& to, actors::shard_move_status& status) {
    return mover_.start(shard, to, status);
  };
}

std::unique_ptr<cluster_node> cluster_node::start(const core::config& cfg, services& svc, actors::runtime& rt,
                                                  exchange_handler& api,
                                                  exchange_handler& admin, const std::string& api_url,
                                                  const std::string& admin_url, cluster_table& table,
                                                  std::string& error) {
  auto etcd_security = etcd_security_of(cfg, error);
  if (!etcd_security)
    return nullptr;
  std::unique_ptr<cluster_node> node{new cluster_node{cfg, svc, rt, api, admin, table, *etcd_security}};
  auto [host, port] = split_host_port(cfg.cluster_listen);
  node->gate_->set_node_actor(node->entry_->id(), serialized_node_id_size(svc.system));
  if (!node->gate_->open(host, port, error))
    return nullptr;
  // Published on the gate's local socket (the port number is CAF's key only).
  caf::scoped_actor self{svc.system};
  self->request(node->transport_, std::chrono::seconds{10}, caf::publish_atom::value, uint16_t{0},
                caf::actor_cast<caf::strong_actor_ptr>(node->entry_), svc.system.message_types<actors::node_actor>(),
                std::string{}, true)
    .receive([](uint16_t) {},
             [&](caf::error& err) { error = "cannot publish the node actor: " + svc.system.render(err); });
  if (!error.empty())
    return nullptr;
  auto bound = node->gate_->port();
  svc.cluster = node->router_.actor();
  membership_options options;
  options.etcd = cfg.etcd;
  options.etcd_security = *etcd_security;
  options.self = {cfg.node_id, host + ":" + std::to_string(bound), api_url, admin_url};
  options.bootstrap = cfg.cluster_bootstrap;
  options.lease_ttl = std::max(std::chrono::seconds{1}, std::chrono::duration_cast<std::chrono::seconds>(cfg.cluster_lease));
  core::log_info("cluster", "node " + cfg.node_id + " listens for its peers on " + options.self.cluster_address);
  // The start-up recovery ran before the map was known, so it resumed none of
  // this node's jobs, deliveries or key grace timers: the first map's shards
  // of this node are adopted, as a move here would (each step skips what a
  // request started meanwhile).
  auto adopted = std::make_shared<std::atomic<bool>>(false);
  node->membership_ = std::make_unique<membership>(
    std::move(options), [&table, router = &node->router_, handover = rt.handles().handover, adopted,
                         self_id = cfg.node_id](actors::cluster_view v) {
      table.publish(v);
      if (v.map.owners.size() == core::shard_count && !adopted->exchange(true))
        adopt_own_shards(handover, v.map, self_id);
      router->update(std::move(v));
    });
  return node;
}

cluster_node::~cluster_node() {
  svc_.move_shard = nullptr;
  membership_.reset();
  caf::anon_send_exit(entry_, caf::exit_reason::user_shutdown);
  // Detached: the actor system's end waits for it, so it must be told.
  caf::anon_send_exit(intake_, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(transport_, caf::exit_reason::user_shutdown); // so is the middleman actor
}

} // namespace svc::cluster
