#pragma once
// What the campaign prints on stdout: one line after each cycle's checks
// with the running totals, and the summary at the end (requests by kind and
// outcome, how the uncertain ones resolved, jobs by status, events and
// deliveries, violations by check).

#include <chrono>
#include <vector>

#include "checks.hpp"
#include "delivery_recorder.hpp"
#include "ledger.hpp"
#include "options.hpp"
#include "server_view.hpp"
#include "violations.hpp"

namespace svc::chaos {

/// Everything the report reads.
struct report_sources {
  const campaign_options& options;
  ledger& book;
  const check_memory& memory;
  const delivery_recorder& hooks;
  const violations& found;
};

/// The line after cycle `cycle`, whose load lasted `load`.
void print_cycle(const report_sources& s, int cycle, std::chrono::milliseconds load);

/// The summary after `cycles_done` cycles that took `took`; `teams` as the
/// last checks read them.
void print_summary(const report_sources& s, int cycles_done, std::chrono::steady_clock::duration took,
                   const std::vector<team_view>& teams);

} // namespace svc::chaos
