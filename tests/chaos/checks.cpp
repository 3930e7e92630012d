#include "checks.hpp"

#include <chrono>
#include <thread>

namespace svc::chaos {
namespace {

using namespace std::chrono_literals;

std::size_t unsettled(const team_view& v) {
  std::size_t n = 0;
  for (auto& [id, job] : v.jobs)
    n += is_terminal(job.status) ? 0 : 1;
  return n;
}

// Reads every team until no job is left running and each read saw a balance
// that did not move; reports the jobs still running at the deadline.
std::vector<team_view> read_settled(check_context& cx) {
  auto keys = cx.book.with([](ledger_state& b) {
    std::vector<std::string> out;
    for (auto& t : b.teams)
      out.push_back(t.full_key);
    return out;
  });
  auto deadline = std::chrono::steady_clock::now() + cx.options.settle_timeout;
  for (;;) {
    std::vector<team_view> views;
    bool settled = true;
    for (auto& key : keys) {
      views.push_back(read_team(cx.api, key));
      settled = settled && views.back().consistent && unsettled(views.back()) == 0;
    }
    if (settled)
      return views;
    if (std::chrono::steady_clock::now() > deadline) {
      for (auto& v : views)
        for (auto& [id, job] : v.jobs)
          if (!is_terminal(job.status))
            cx.report("job-ends-terminal", id,
                      "still '" + job.status + "' " + std::to_string(cx.options.settle_timeout.count())
                        + " s after the restart");
      return views;
    }
    std::this_thread::sleep_for(250ms);
  }
}

// A write the load sent answered 5xx only with 507 `insufficient_storage`
// (a store refusing growth), never with another error: a failure of the
// store's room must never look like an outage (issue 30: 503 `unavailable`).
void check_server_errors(check_context& cx) {
  auto refusals = cx.book.with([](ledger_state& b) { return b.refusals; });
  for (auto& [refusal, count] : refusals) {
    auto status = refusal.find(": 5");
    if (status != std::string::npos && refusal.compare(status, 6, ": 507 ") != 0)
      cx.report("server-errors-are-507", refusal, std::to_string(count) + " answers");
  }
}

} // namespace

void check_context::report(const std::string& check, const std::string& subject, const std::string& detail) {
  if (memory.reported.insert({check, subject}).second)
    found.add(cycle, check, subject, detail);
}

std::vector<team_view> check_after_restart(check_context& cx) {
  check_server_errors(cx);
  resolve_unanswered_creates(cx);
  recheck_keyed_creates(cx);
  check_key_rotations(cx);
  auto teams = read_settled(cx);
  check_acknowledged_writes(cx, teams);
  check_settlements(cx, teams);
  check_credits(cx, teams);
  check_deliveries(cx);
  check_blobs(cx, teams);
  cx.hooks.forget_requests();
  return teams;
}

} // namespace svc::chaos
