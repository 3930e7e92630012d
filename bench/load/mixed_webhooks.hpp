#pragma once
// The webhook half of the `mixed` scenario: svc-bench's HTTPS receiver (its
// certificate from the test CA in a directory svcd trusts through
// --webhook-ca-file; svcd needs --webhook-allow-private for a loopback
// receiver), E endpoints per team subscribed to every event, each delivery
// verified by a delivery_checker. The receiver listens on 127.0.0.1, so
// deliveries come only from a svcd on this machine.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/load/delivery_checker.hpp"
#include "bench/load/target.hpp"
#include "bench/receiver/https_receiver.hpp"

namespace svc::bench {

class mixed_webhooks {
public:
  /// Starts the receiver for `endpoints` endpoints in all, making the test CA
  /// in `ca_dir` if absent. Throws std::runtime_error when it cannot.
  mixed_webhooks(const std::string& ca_dir, std::size_t endpoints);

  /// Registers `per_team` endpoints for each key; what went wrong, or "".
  std::string register_endpoints(const target& server, const std::vector<std::string>& keys, std::size_t per_team);

  /// Deliveries received from now on, for `window`, count.
  void open_window(std::chrono::milliseconds window);

  /// What the receiver saw.
  delivery_counts counts() { return checker_.counts(); }

private:
  delivery_checker checker_;
  receiver::https_receiver receiver_;
  std::atomic<uint64_t> handled_{0};
};

} // namespace svc::bench
