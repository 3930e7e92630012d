#pragma once
// Scenario `create-poll`: what a well-behaved client sees end to end. Each key
// (one team each) creates N images as fast as its `images_post` bucket lets
// it, each created job is polled with GET /v1/images/{id} until terminal
// (from its creation on, as a real client would), and the GETs are paced by
// the team's `reads` bucket the same way.

#include "bench/load/latency_summary.hpp"
#include "bench/load/requests.hpp"
#include "bench/load/status_counts.hpp"
#include "bench/load/target.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace svc::bench {

struct create_poll_options {
  target server;
  std::vector<std::string> keys;
  image_spec image;
  std::size_t per_team = 130;                     ///< images per team; the default passes the default burst of 120
  std::chrono::milliseconds poll_interval{200};   ///< between two GETs of one job (without `wait`)
  std::chrono::seconds wait{0};                   ///< > 0: GETs carry `Prefer: wait=N` and re-poll at once
  std::size_t poll_connections = 2;               ///< per team
  std::chrono::milliseconds timeout{5 * 60'000};  ///< the whole run gives up after this
};

struct create_poll_result {
  status_counts creates;                   ///< answers to the POSTs
  status_counts polls;                     ///< answers to the GETs
  std::map<std::string, uint64_t> terminal; ///< terminal status -> jobs
  latency_summary completion;              ///< create sent -> terminal answer read
  uint64_t wanted = 0;                     ///< teams x per_team
  uint64_t created = 0;                    ///< jobs created (201)
  uint64_t unfinished = 0;                 ///< created, not seen terminal (timeout, or a GET answered 4xx)
  uint64_t short_teams = 0;                ///< teams that stopped short of N (a 4xx other than 429)
  double create_seconds = 0;               ///< start -> last 201
  double wall_seconds = 0;                 ///< start -> last job terminal, or the timeout

  /// Every team created N images and every job was seen terminal.
  bool complete() const { return created == wanted && unfinished == 0; }
};

/// Runs the scenario on one io thread; returns when every created job is
/// terminal or the timeout passed.
create_poll_result run_create_poll(const create_poll_options& o);

/// The human report (a few lines) and the `SUMMARY {...}` JSON line.
std::string create_poll_report(const create_poll_options& o, const create_poll_result& r);

} // namespace svc::bench
