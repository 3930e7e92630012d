#pragma once
// What the campaign runs its load against and kills: one svcd, or (with
// `--cluster N`) etcd and N svcd nodes, whose load goes through every node and
// whose shards move between them now and then while it runs.

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "load.hpp"
#include "support/svcd_process.hpp"

namespace svc::chaos {

struct check_context;

class deployment {
public:
  virtual ~deployment() = default;

  /// Where this cycle's load goes: every running node.
  virtual std::vector<load_target> targets() const = 0;
  /// The node svcctl and the checks' reads go through.
  virtual e2e::svcd_process& front() = 0;
  /// Every node's data directory.
  virtual std::vector<std::string> data_dirs() const = 0;
  /// The node that holds `team_id`.
  virtual std::string owner_of(const std::string& team_id) const = 0;
  /// Done once during each cycle's load: a cluster starts a shard move;
  /// returns what it did, for the cycle's line (empty: nothing).
  virtual std::string stir(std::mt19937_64& rng) = 0;
  /// Kills one svcd with SIGKILL; returns its name.
  virtual std::string kill_one(std::mt19937_64& rng) = 0;
  /// Starts what was killed and waits until everything serves again.
  /// Throws std::runtime_error (with the log tail) when it does not.
  virtual void restart() = 0;
  /// Checks of its own after each restart (a cluster's: one owner per shard).
  virtual void check(check_context& cx) = 0;
  /// Stops every svcd with SIGTERM: why a stop was not clean, or empty.
  virtual std::string stop() = 0;
  /// Keeps the data directories; returns where they are and the logs.
  virtual std::string keep() = 0;
};

/// One svcd with `svcd_args`.
std::unique_ptr<deployment> single_node(const std::vector<std::string>& svcd_args);
/// A secured etcd and `nodes` svcd nodes, each with `svcd_args`.
std::unique_ptr<deployment> cluster_of(int nodes, const std::vector<std::string>& svcd_args);

/// Waits until `svcd` answers /readyz with 200 (30 s at most).
bool wait_ready(const e2e::svcd_process& svcd);

} // namespace svc::chaos
