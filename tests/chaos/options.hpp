#pragma once
// The campaign's command line: `svc-chaos [CYCLES] [--seed N] [--threads N]
// [--teams N] [--cluster N] [--keep] [-- SVCD-OPTIONS...]`.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace svc::chaos {

struct campaign_options {
  int cycles = 10;           ///< kill-and-restart cycles
  std::uint64_t seed = 0;    ///< seeds every random choice; 0: drawn at start (and printed)
  int threads = 4;           ///< client threads of the load
  int teams = 2;             ///< teams the load spreads over
  int cluster = 0;           ///< nodes of a cluster (with etcd) to run instead of one svcd; 0: one svcd
  bool keep = false;         ///< keep the data directory at the end (always kept after a violation)
  std::chrono::milliseconds load_min{300};  ///< shortest load before a kill
  std::chrono::milliseconds load_max{3000}; ///< longest load before a kill
  std::chrono::seconds settle_timeout{120}; ///< how long jobs may take to end after a restart
  std::chrono::seconds delivery_timeout{60}; ///< how long owed deliveries may take after that
  std::vector<std::string> svcd_args; ///< more svcd options (after `--`), e.g. `--queue-ttl 2s`
};

/// The options of `argv`, or nothing with `error` set (a usage line).
std::optional<campaign_options> parse_options(int argc, char** argv, std::string& error);

} // namespace svc::chaos
