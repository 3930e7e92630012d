#include "report.hpp"

#include <iomanip>
#include <iostream>
#include <map>

namespace svc::chaos {
namespace {

std::uint64_t total_requests(const ledger_state& b, outcome o) {
  std::uint64_t n = 0;
  for (auto& row : b.counts)
    n += row[static_cast<std::size_t>(o)];
  return n;
}

std::uint64_t events_minted(const check_memory& memory) {
  std::uint64_t n = 0;
  for (auto& feed : memory.events)
    n += feed.size();
  return n;
}

void print_request_row(const std::string& name, const std::array<std::uint64_t, 4>& n) {
  std::cout << "  " << std::left << std::setw(18) << name << std::right << std::setw(13) << n[0] << std::setw(9)
            << n[1] << std::setw(7) << n[2] << std::setw(11) << n[3] << "\n";
}

} // namespace

void print_cycle(const report_sources& s, int cycle, std::chrono::milliseconds load) {
  auto [acknowledged, unanswered, jobs] = s.book.with([](ledger_state& b) {
    std::size_t jobs = 0;
    for (auto& t : b.teams)
      jobs += t.jobs.size();
    return std::tuple{total_requests(b, outcome::acknowledged), total_requests(b, outcome::unanswered), jobs};
  });
  auto d = s.hooks.totals();
  std::cout << "cycle " << cycle << "/" << s.options.cycles << ": " << std::fixed << std::setprecision(2)
            << static_cast<double>(load.count()) / 1000.0 << " s of load, SIGKILL, restart, checked; so far "
            << acknowledged << " requests acknowledged, " << unanswered << " unanswered, " << jobs << " jobs, "
            << events_minted(s.memory) << " events, " << s.memory.owed.size() << " deliveries owed, "
            << d.delivered << " delivered (" << d.duplicates << " duplicates), " << s.found.count() << " violations"
            << std::endl;
}

void print_summary(const report_sources& s, int cycles_done, std::chrono::steady_clock::duration took,
                   const std::vector<team_view>& teams) {
  auto b = s.book.with([](ledger_state& b) { return b; });
  std::cout << "\nchaos summary: seed " << s.options.seed << ", " << cycles_done << " of " << s.options.cycles
            << " cycles, " << std::fixed << std::setprecision(0) << std::chrono::duration<double>(took).count()
            << " s\n";
  std::cout << "  " << std::left << std::setw(18) << "requests" << std::right << std::setw(13) << "acknowledged"
            << std::setw(9) << "refused" << std::setw(7) << "5xx" << std::setw(11) << "unanswered" << "\n";
  for (std::size_t op = 0; op < operation_count; ++op)
    print_request_row(std::string{name_of(static_cast<operation>(op))}, b.counts[op]);
  print_request_row("total", {total_requests(b, outcome::acknowledged), total_requests(b, outcome::refused),
                              total_requests(b, outcome::server_error), total_requests(b, outcome::unanswered)});
  for (auto& [refusal, n] : b.refusals)
    std::cout << "    " << refusal << ": " << n << "\n";
  std::cout << "  uncertain keyed creates sent again: " << b.keyed_resolved_replayed << " had happened (replayed), "
            << b.keyed_resolved_fresh << " had not (created then), " << b.keyed_resolved_refused
            << " had not (refused then: 507)\n"
            << "  uncertain grants: " << b.grants_resolved_landed << " landed, " << b.grants_resolved_lost
            << " did not; uncertain key rotations that happened: " << b.rotations_resolved_lost << "\n";

  std::map<std::string, std::size_t> statuses;
  std::size_t jobs = 0;
  for (auto& t : teams)
    for (auto& [id, job] : t.jobs) {
      ++statuses[job.status];
      ++jobs;
    }
  std::cout << "  jobs: " << jobs << " (";
  const char* separator = "";
  for (auto& [status, n] : statuses) {
    std::cout << separator << status << " " << n;
    separator = ", ";
  }
  auto d = s.hooks.totals();
  std::cout << ")\n  events: " << events_minted(s.memory) << " minted; " << s.memory.owed.size()
            << " deliveries owed to live endpoints (an event after the endpoint's create was answered) and checked; "
            << d.delivered << " (endpoint, event) pairs delivered in all, " << d.duplicates << " duplicates; "
            << d.failed_on_purpose << " first attempts failed on purpose; " << d.requests
            << " receiver requests in all\n";

  std::cout << "  violations: " << s.found.count() << "\n";
  for (auto& [check, n] : s.found.per_check())
    std::cout << "    " << std::left << std::setw(40) << check << std::right << " " << n << "\n";
  auto shown = s.found.shown();
  for (auto& v : shown)
    std::cout << "    cycle " << v.cycle << " " << v.check << " " << v.subject << ": " << v.detail << "\n";
  if (s.found.count() > shown.size())
    std::cout << "    (" << s.found.count() - shown.size() << " more not shown: each check shows its first "
              << violations::shown_per_check << ")\n";
  std::cout << std::flush;
}

} // namespace svc::chaos
