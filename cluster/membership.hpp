#pragma once
// This node's membership in etcd, on two threads of its own (etcd calls
// block, so they never run on asio or actor threads):
// - the lease keeper registers the node under a lease and renews it every
//   third of its TTL, registering again if etcd lost it;
// - the watcher creates the first shard map if the cluster has none and it
//   was given the bootstrap members, then reads everything under `/svc/`
//   and follows every change, handing each new view to `on_view`.
// When etcd cannot be reached both retry with backoff; the last view stays.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "actors/cluster_payloads.hpp"
#include "clients/etcd_security.hpp"

namespace svc::cluster {

struct membership_options {
  std::vector<std::string> etcd;         ///< endpoints HOST:PORT
  clients::etcd_security etcd_security;  ///< TLS and login toward them
  actors::node_info self;                ///< what this node registers
  std::vector<std::string> bootstrap;    ///< members of the first map, if etcd has none
  std::chrono::seconds lease_ttl{5};
  std::chrono::milliseconds call_timeout{1000}; ///< one etcd exchange (a watch sees a stop within it)
};

class membership {
public:
  using view_handler = std::function<void(actors::cluster_view)>;

  /// Starts both threads; `on_view` runs on the watcher's thread.
  membership(membership_options options, view_handler on_view);
  /// Stops both threads and ends the lease, so the others drop this node at once.
  ~membership();
  membership(const membership&) = delete;
  membership& operator=(const membership&) = delete;

private:
  void keep_lease();
  void watch();
  /// Sleeps `d` or until stopping; false when stopping.
  bool pause(std::chrono::milliseconds d);

  membership_options options_;
  view_handler on_view_;
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<int64_t> lease_{0};
  std::thread keeper_;
  std::thread watcher_;
};

} // namespace svc::cluster
