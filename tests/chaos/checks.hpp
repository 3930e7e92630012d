#pragma once
// The checks after every restart, in the order `check_after_restart` runs
// them: the load's 5xx answers were all 507, writes left unanswered by the kill are resolved, acknowledged keyed
// creates asked again, then (once every job has ended) acknowledged writes
// looked up, settlements and credits balanced, owed webhook deliveries
// awaited, and the blob folders compared with the records.

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "delivery_recorder.hpp"
#include "ledger.hpp"
#include "options.hpp"
#include "server_view.hpp"
#include "support/http_client.hpp"
#include "support/svcd_process.hpp"
#include "violations.hpp"

namespace svc::chaos {

/// What the checks remember from one restart to the next.
struct check_memory {
  std::vector<std::map<std::string, event_view>> events; ///< per team: its event feed so far
  std::unordered_map<std::string, std::string> terminal;  ///< job id -> the terminal status first seen
  std::set<std::pair<std::string, std::string>> reported; ///< (check, subject) already reported: once is enough
  std::unordered_set<std::string> owed;                   ///< `<endpoint id> <event id>` of every delivery owed so far
  std::uint64_t malformed_reported = 0;                   ///< malformed deliveries already reported
};

/// Everything a check works with.
struct check_context {
  int cycle = 0;
  const campaign_options& options;
  e2e::svcd_process& svcd;             ///< the node svcctl goes through
  std::vector<std::string> data_dirs;  ///< every node's (one without --cluster)
  e2e::http_client api;
  ledger& book;
  delivery_recorder& hooks;
  violations& found;
  check_memory& memory;
  std::mt19937_64& rng;

  /// Reports a violation unless (check, subject) was reported before.
  void report(const std::string& check, const std::string& subject, const std::string& detail);
};

/// Runs every check after a restart (load halted, svcd up); returns the
/// teams as last read, for the summary.
std::vector<team_view> check_after_restart(check_context& cx);

// ---- record_checks.cpp ----
/// Sends every unanswered keyed create again: it must answer 201 (a replay
/// if it had happened); it then counts as acknowledged.
void resolve_unanswered_creates(check_context& cx);
/// Sends the keyed creates acknowledged since the last restart, and a sample
/// of older ones, again: each must answer as the first time.
void recheck_keyed_creates(check_context& cx);
/// Every key a rotation answered works, and the key it replaced too (grace);
/// an unanswered rotation is looked up and, if it happened, the team gets a
/// new write key through svcctl.
void check_key_rotations(check_context& cx);
/// Every acknowledged job, cancel, upload and endpoint (and delete) is there.
void check_acknowledged_writes(check_context& cx, const std::vector<team_view>& teams);

// ---- credit_checks.cpp ----
/// Each job ended once: at most one settlement event, matching its terminal
/// status, which never changes later; every settled job has its event.
void check_settlements(check_context& cx, const std::vector<team_view>& teams);
/// For each team granted = available + held + charged, held and charged
/// agree with the jobs' costs, and unanswered grants are resolved.
void check_credits(check_context& cx, const std::vector<team_view>& teams);

// ---- delivery_checks.cpp ----
/// Every event owed to a live endpoint reaches its receiver at least once
/// (waiting up to the options' delivery timeout), signed with a secret the
/// clients were given.
void check_deliveries(check_context& cx);

// ---- blob_checks.cpp ----
/// Every blob belongs to a record (no orphan, no temp file) and every
/// record's blob is there.
void check_blobs(check_context& cx, const std::vector<team_view>& teams);

} // namespace svc::chaos
