#pragma once
// The driver of the create, read and mixed scenarios. Keep-alive connections
// on one or more io threads send what a `load_source` plans, either
//  - closed loop: each connection sends its next request when the answer to
//    its last one came; latency runs from send to answer; or
//  - open loop (`rate` > 0): request k is due at start + k / rate whatever
//    the answers, and its latency runs from that intended time. A request due
//    while every connection is busy waits for one, and the wait counts: a
//    stalled server shows as the requests it made late, not as fewer samples
//    (no coordinated omission). Requests still waiting when the window closes
//    go on in the drain; what is left when it ends is counted as unsent.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bench/load/http_connection.hpp"
#include "bench/load/latency_histogram.hpp"
#include "bench/load/status_counts.hpp"
#include "bench/load/target.hpp"
#include "bench/load/time_series.hpp"

namespace svc::bench {

/// One request a source wants sent.
struct planned_request {
  std::size_t kind = 0;             ///< which of the scenario's operations (an index into its names)
  std::string request;              ///< the full HTTP/1.1 message
  std::size_t key = 0;              ///< the key it was sent with (its team)
  std::string subject;              ///< what the source needs to judge the answer: a job id, ...
  steady::time_point not_before{};  ///< closed loop: wait until then and ask again (a rate-limit pacer)
};

/// What a scenario sends and how it judges the answers. One per io thread,
/// called from that thread only.
class load_source {
public:
  virtual ~load_source() = default;
  /// What connection `connection` (0..connections-1 over all threads) sends next, at `now`.
  virtual planned_request next(std::size_t connection, steady::time_point now) = 0;
  /// Whether `x` is the answer `p` wanted; the source learns from it (ids, rate-limit headers).
  virtual bool judge(const planned_request& p, const exchange& x) = 0;
};

struct load_options {
  target server;
  std::size_t kinds = 1;                      ///< operations the source plans (`planned_request::kind` < kinds)
  std::size_t connections = 64;
  std::size_t threads = 1;                    ///< io threads, each with its own source and share of the connections
  double rate = 0;                            ///< requests/s in all; 0: closed loop
  std::chrono::milliseconds duration{10'000}; ///< closed loop: requests go inside it; open loop: they fall due in it
  std::chrono::milliseconds drain{5'000};     ///< open loop: after the window, requests due still go and answers come
};

/// Answers to one kind of operation.
struct kind_result {
  status_counts counts;       ///< every answer and error
  uint64_t ok = 0;            ///< answers the source judged good
  latency_histogram latency;  ///< of the good answers
};

struct load_result {
  std::vector<kind_result> kinds;       ///< by kind
  latency_histogram latency;            ///< good answers of every kind
  std::vector<time_series_row> series;  ///< per second from the start
  double seconds = 0;                   ///< the window
  double client_cpu_s = 0;              ///< this process meanwhile: near a core, the harness capped the figures
  uint64_t unsent = 0;                  ///< open loop: due in the window, not sent by the drain's end (connections busy)
  uint64_t max_backlog = 0;             ///< open loop: most requests due at once and waiting for a connection
  uint64_t unfinished = 0;              ///< open loop: sent, no answer by the end of the drain

  /// Answers and errors of every kind.
  uint64_t requests() const;
  /// Good answers of every kind.
  uint64_t ok() const;
};

/// Makes the source of io thread `thread` before the run starts.
using source_factory = std::function<std::unique_ptr<load_source>(std::size_t thread)>;

/// Runs the window (closed loop: answers completed inside it count; open
/// loop: requests due inside it, sent and answered up to the drain's end) and returns
/// when every exchange has ended.
load_result run_load(const load_options& o, const source_factory& make);

} // namespace svc::bench
