#include "cluster/cluster_node.hpp"

#include <fstream>

#include <caf/io/middleman.hpp>
#include <caf/openssl/manager.hpp>
#include <caf/openssl/publish.hpp>

#include "core/log.hpp"
#include "cluster/node_actor.hpp"

namespace svc::cluster {
// The fronts and the node actor speak http's request vocabulary.
using http::exchange_handler;
using http::listener_kind;
using http::services;
namespace {

// The CAF application id of this wire format: nodes of releases whose
// messages differ refuse each other at connect instead of misreading.
constexpr const char* wire_identifier = "svc-cluster-v1";

// The longest `Prefer: wait` a forwarded read may hold (job_reads.cpp caps it at 60 s).
constexpr auto longest_wait = std::chrono::seconds{60};
// How long a moved shard's rows stay on its old owner: the requests that
// were on their way here when the map changed are forwarded meanwhile.
constexpr auto shard_move_grace = std::chrono::seconds{10};

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

void configure_cluster_transport(caf::actor_system_config& caf_cfg, const core::config& cfg) {
  caf_cfg.load<caf::io::middleman>();
  caf_cfg.load<caf::openssl::manager>();
  caf_cfg.openssl_certificate = cfg.cluster_cert;
  caf_cfg.openssl_key = cfg.cluster_key;
  caf_cfg.openssl_cafile = cfg.cluster_ca;
  caf_cfg.set("middleman.app-identifiers", std::vector<std::string>{wire_identifier});
  // CAF's heartbeats stay off (peer_router.cpp pings the peers instead).
  // Messages from peers are read on CAF's network thread, not handed to a
  // BASP worker on the scheduler: each hand-off woke a worker thread, and
  // its delivery to the node actor (a broker, on the network thread) woke
  // the network thread again, for every forwarded request and answer.
  caf_cfg.set("middleman.workers", 0);
}

cluster_node::cluster_node(const core::config& cfg, services& svc, actors::runtime& rt, exchange_handler& api,
                           exchange_handler& admin, cluster_table& table)
  : svc_{svc},
    router_{svc.system, svc.io,
            peer_router_options{cfg.node_id, caf::duration{cfg.cluster_timeout},
                                cfg.request_deadline + longest_wait,
                                std::chrono::duration_cast<std::chrono::milliseconds>(cfg.cluster_heartbeat),
                                caf::duration{cfg.cluster_timeout}}},
    api_front_{api, listener_kind::api, svc, table, router_},
    admin_front_{admin, listener_kind::admin, svc, table, router_},
    intake_{spawn_shard_intake(svc.system, {&table, &rt.tables(), &rt.blobs(), rt.handles().store,
                                            rt.handles().handover, router_.actor()})},
    entry_{spawn_node_actor(svc.system,
                            {&api_front_, &admin_front_, &svc.io, cfg.body_limit, router_.actor(), intake_,
                             &router_.table()})},
    mover_{{&svc.system, &table, &rt.tables(), &rt.blobs(), rt.handles().store, rt.handles().handover,
            router_.actor(), cfg.etcd, cfg.request_deadline + longest_wait, shard_move_grace}} {
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
  std::unique_ptr<cluster_node> node{new cluster_node{cfg, svc, rt, api, admin, table}};
  auto [host, port] = split_host_port(cfg.cluster_listen);
  auto bound = caf::openssl::publish(node->entry_, port, host.c_str(), true);
  if (!bound) {
    error = "cannot publish the node actor on " + cfg.cluster_listen + ": " + svc.system.render(bound.error());
    return nullptr;
  }
  svc.cluster = node->router_.actor();
  membership_options options;
  options.etcd = cfg.etcd;
  options.self = {cfg.node_id, host + ":" + std::to_string(*bound), api_url, admin_url};
  options.bootstrap = cfg.cluster_bootstrap;
  options.lease_ttl = std::max(std::chrono::seconds{1}, std::chrono::duration_cast<std::chrono::seconds>(cfg.cluster_lease));
  core::log_info("cluster", "node " + cfg.node_id + " listens for its peers on " + options.self.cluster_address);
  node->membership_ = std::make_unique<membership>(std::move(options), [&table, router = &node->router_](actors::cluster_view v) {
    table.publish(v);
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
}

} // namespace svc::cluster
