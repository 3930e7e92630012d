#pragma once
// The process's own figures as Prometheus' standard `process_*` metrics
// name them, read from /proc (Linux only).

#include <optional>

namespace svc::core {

struct process_stats {
  double cpu_seconds = 0;       ///< user + system
  double resident_bytes = 0;
  double virtual_bytes = 0;
  double open_fds = 0;
  double max_fds = 0;           ///< the soft limit
  double start_time_seconds = 0; ///< since the epoch
};

/// The figures now, or nothing when /proc cannot be read.
std::optional<process_stats> read_process_stats();

} // namespace svc::core
