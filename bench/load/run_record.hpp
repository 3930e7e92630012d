#pragma once
// Everything a create, read or mixed run reports: what ran, the answers and,
// for mixed, the webhook deliveries. The text report, the SUMMARY line and
// summary.json are all made from it, so they cannot disagree.

#include <boost/json/object.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "bench/load/delivery_checker.hpp"
#include "bench/load/load_engine.hpp"

namespace svc::bench {

/// The webhook deliveries of a mixed run.
struct webhook_figures {
  std::size_t endpoints = 0; ///< registered, over all teams
  delivery_counts seen;
};

struct run_record {
  std::string scenario;                 ///< create | read | mixed
  std::vector<std::string> operations;  ///< the kinds' names, in their order
  std::string mix;                      ///< read and mixed: the shares, `image=4,team=1`
  std::string target;                   ///< HOST:PORT
  double rate = 0;                      ///< requests/s; 0: closed loop
  std::size_t connections = 0, threads = 0, keys = 0;
  double drain_seconds = 0;             ///< open loop
  std::string started_at;               ///< ISO 8601 UTC
  load_result result;
  std::optional<webhook_figures> webhooks;
  std::string command;                  ///< reproduces the run

  /// Every answer the one wanted; open loop, every due request sent and
  /// answered; webhooks, every delivery verified, none malformed or twice.
  bool clean() const;
};

/// The figures as JSON; `with_histogram` adds the non-empty latency buckets
/// (summary.json has them, the SUMMARY line not).
boost::json::object summary_json(const run_record& r, bool with_histogram);

/// The human report: a few lines.
std::string summary_text(const run_record& r);

} // namespace svc::bench
