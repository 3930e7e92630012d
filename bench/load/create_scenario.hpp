#pragma once
// Scenario `create`: sustained POST /v1/images throughput. C keep-alive
// connections each send a create, wait for its answer and send the next,
// for a fixed time; connection i sends with key i mod K, so K teams share
// the load. Only answers completed inside the window count.

#include "bench/load/latency_summary.hpp"
#include "bench/load/requests.hpp"
#include "bench/load/status_counts.hpp"
#include "bench/load/target.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace svc::bench {

struct create_options {
  target server;
  std::vector<std::string> keys;
  image_spec image;
  std::size_t connections = 64;
  std::chrono::milliseconds duration{10'000};
  std::size_t threads = 1; ///< io threads, each with its own io_context and share of the connections
};

struct create_result {
  status_counts counts;    ///< every answer (and error) completed inside the window
  latency_summary created; ///< latencies of the 201s
  double seconds = 0;      ///< the window
  double client_cpu_s = 0; ///< CPU this process used meanwhile: near a core, the harness caps the figure

  /// 201s per second of the window.
  double creates_per_s() const;
};

/// Runs the scenario; returns when the window closed and every exchange in
/// flight then has ended.
create_result run_create(const create_options& o);

/// The human report (a few lines) and the `SUMMARY {...}` JSON line.
std::string create_report(const create_options& o, const create_result& r);

} // namespace svc::bench
