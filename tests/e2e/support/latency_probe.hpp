#pragma once
// API reads timed on a thread of their own while a test makes one of svcd's
// neighbours misbehave: the figures say whether the rest of the service kept
// its latency.

#include <chrono>
#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace svc::e2e {

/// What the reads saw.
struct read_figures {
  std::size_t reads = 0;                 ///< reads that answered 200
  std::size_t failures = 0;              ///< reads that answered otherwise, or not at all
  std::chrono::milliseconds median{0};   ///< of all reads
  std::chrono::milliseconds slowest{0};  ///< the slowest read
  std::string slowest_target;            ///< what it read
  std::string first_failure;             ///< target and answer of the first failure
};

/// `reads=N failures=N median=Nms slowest=Nms (target)`.
std::ostream& operator<<(std::ostream& os, const read_figures& f);

class latency_probe {
public:
  /// Starts reading `targets` of `base_url` in turn with `key`, one read
  /// every `pause`, on one keep-alive connection.
  latency_probe(std::string base_url, std::string key, std::vector<std::string> targets,
                std::chrono::milliseconds pause = std::chrono::milliseconds{20});
  /// Stops.
  ~latency_probe();
  latency_probe(const latency_probe&) = delete;
  latency_probe& operator=(const latency_probe&) = delete;

  /// Stops reading (after the read under way) and returns the figures.
  read_figures stop();

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace svc::e2e
