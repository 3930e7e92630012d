#include "cluster/membership.hpp"

#include <map>

#include "core/log.hpp"
#include "cluster/etcd_values.hpp"
#include "cluster/retry_backoff.hpp"
#include "clients/etcd_client.hpp"

namespace svc::cluster {
using clients::etcd_client;
using clients::etcd_error;
using clients::etcd_event;
using clients::etcd_event_kind;
using clients::etcd_kv;
namespace {

using namespace std::chrono_literals;

// The members and the map as the watcher follows them, key by key.
class followed_state {
public:
  void apply(const etcd_kv& kv) {
    if (kv.key == etcd_map_key) {
      if (auto m = parse_map_value(kv.value, kv.mod_revision))
        map_ = std::move(*m);
      else
        core::log_warn("cluster", "the shard map in etcd is malformed; keeping the one before");
    } else if (kv.key.rfind(etcd_nodes_prefix, 0) == 0) {
      if (auto n = parse_node_value(kv.value); n && kv.key == std::string{etcd_nodes_prefix} + n->id)
        nodes_[kv.key] = std::move(*n);
      else
        core::log_warn("cluster", "a malformed member entry in etcd is ignored");
    }
  }
  void erase(const std::string& key) {
    nodes_.erase(key);
    if (key == etcd_map_key)
      map_ = {};
  }
  void clear() {
    nodes_.clear();
    map_ = {};
  }
  actors::cluster_view view() const {
    actors::cluster_view v;
    for (auto& [key, n] : nodes_)
      v.nodes.push_back(n);
    v.map = map_;
    return v;
  }

private:
  std::map<std::string, actors::node_info> nodes_;
  actors::shard_map map_;
};

} // namespace

membership::membership(membership_options options, view_handler on_view)
  : options_{std::move(options)}, on_view_{std::move(on_view)},
    keeper_{[this] { keep_lease(); }}, watcher_{[this] { watch(); }} {}

membership::~membership() {
  {
    std::lock_guard lock{mutex_};
    stopping_ = true;
  }
  wake_.notify_all();
  keeper_.join();
  watcher_.join();
  if (auto lease = lease_.load()) {
    try {
      etcd_client{options_.etcd, options_.call_timeout, options_.etcd_security}.revoke(lease);
    } catch (const std::exception& e) {
      core::log_warn("cluster", std::string{"could not end the membership lease: "} + e.what());
    }
  }
}

bool membership::pause(std::chrono::milliseconds d) {
  std::unique_lock lock{mutex_};
  wake_.wait_for(lock, d, [this] { return stopping_.load(); });
  return !stopping_;
}

void membership::keep_lease() {
  etcd_client etcd{options_.etcd, options_.call_timeout, options_.etcd_security};
  auto key = std::string{etcd_nodes_prefix} + options_.self.id;
  auto renew_every = std::chrono::duration_cast<std::chrono::milliseconds>(options_.lease_ttl) / 3;
  auto backoff = std::chrono::milliseconds{first_backoff};
  while (!stopping_) {
    try {
      if (lease_ == 0) {
        auto lease = etcd.grant_lease(options_.lease_ttl);
        etcd.put(key, node_value(options_.self), lease);
        lease_ = lease;
        core::log_info("cluster", "registered as node " + options_.self.id + " (lease "
                                    + std::to_string(options_.lease_ttl.count()) + "s)");
      } else {
        etcd.keep_alive(lease_);
      }
      backoff = first_backoff;
      pause(renew_every);
    } catch (const etcd_error& e) {
      if (e.which() == etcd_error::kind::lease_expired) {
        core::log_warn("cluster", "the membership lease expired; registering again");
        lease_ = 0;
        continue;
      }
      core::log_warn("cluster", std::string{"etcd: "} + e.what());
      pause(backoff);
      backoff = next_backoff(backoff);
    }
  }
}

void membership::watch() {
  etcd_client etcd{options_.etcd, options_.call_timeout, options_.etcd_security};
  auto backoff = std::chrono::milliseconds{first_backoff};
  followed_state state;
  while (!stopping_) {
    try {
      if (!options_.bootstrap.empty() && etcd.get(std::string{etcd_map_key}).kvs.empty()
          && etcd.put_if(std::string{etcd_map_key}, map_value(bootstrap_map(options_.bootstrap)), 0))
        core::log_info("cluster", "created the shard map over " + std::to_string(options_.bootstrap.size()) + " nodes");
      auto all = etcd.get_prefix(std::string{etcd_root});
      state.clear();
      for (auto& kv : all.kvs)
        state.apply(kv);
      on_view_(state.view());
      backoff = first_backoff;
      etcd.watch_prefix(std::string{etcd_root}, all.revision + 1, stopping_,
                        [&](const std::vector<etcd_event>& events, int64_t) {
                          for (auto& e : events) {
                            if (e.kind == etcd_event_kind::put)
                              state.apply(e.kv);
                            else
                              state.erase(e.kv.key);
                          }
                          on_view_(state.view());
                          return !stopping_;
                        });
    } catch (const etcd_error& e) {
      core::log_warn("cluster", std::string{"etcd: "} + e.what());
      pause(backoff);
      backoff = next_backoff(backoff);
    }
  }
}

} // namespace svc::cluster
