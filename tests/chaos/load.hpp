#pragma once
// The mixed load of one cycle: client threads issuing the operations of
// operations.hpp, each with its own connection and RNG, with short pauses, at
// teams chosen at random, until the campaign halts them to kill svcd.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "delivery_recorder.hpp"
#include "ledger.hpp"
#include "violations.hpp"

namespace svc::chaos {

/// Where one svcd of this cycle listens.
struct load_target {
  std::string api_url;
  std::string admin_url;
  std::string admin_token;
};

class load {
public:
  load(std::uint64_t seed, int threads, ledger& book, delivery_recorder& hooks, violations& found);
  ~load();

  /// Starts the clients of `cycle`, spread over `targets` (the nodes of a
  /// cluster; each client keeps to one, a different one each cycle).
  void start(const std::vector<load_target>& targets, int cycle);
  /// Waits until some client is in the middle of an operation (or `limit`
  /// passed), so that a kill now leaves a request unanswered.
  void wait_busy(std::chrono::milliseconds limit);
  /// No client starts another operation from now on; those in flight go on.
  void halt();
  /// Waits for every client to finish (after `halt`; a request to a killed
  /// svcd fails at once).
  void join();

private:
  void run_client(const load_target& target, int cycle, int index);

  std::uint64_t seed_;
  int threads_;
  ledger& book_;
  delivery_recorder& hooks_;
  violations& found_;
  std::atomic<bool> halted_{false};
  std::atomic<int> busy_{0}; ///< clients inside an operation
  std::vector<std::thread> clients_;
};

} // namespace svc::chaos
