#include "campaign.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <random>
#include <thread>

#include "checks.hpp"
#include "delivery_recorder.hpp"
#include "ledger.hpp"
#include "load.hpp"
#include "support/json_util.hpp"
#include "support/svcctl_runner.hpp"
#include "support/svcd_process.hpp"
#include "support/wait.hpp"
#include "support/webhook_receiver_fixture.hpp"
#include "violations.hpp"

namespace svc::chaos {
namespace {

using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;

// Credits each team opens with: enough that no create is ever refused.
constexpr std::int64_t opening_credits = 1'000'000;
// Share of first delivery attempts the receiver fails, so retries happen.
constexpr double failed_first_attempts = 0.2;

std::vector<std::string> svcd_options() {
  return e2e::webhook_svcd_args({
    // Retries end within seconds, so every owed delivery can be awaited.
    "--retry-schedule", "250ms,500ms,1s,2s", "--delivery-timeout", "5s",
    // Jobs take a while, so a kill finds some queued and some rendering.
    "--render-delay", "100ms", "--workers", "4",
    // Outputs outlive the run, so the blob check finds every one.
    "--output-ttl", "24h"});
}

void make_teams(const e2e::svcd_process& svcd, int count, ledger& book) {
  auto ctl = [&](const std::vector<std::string>& args) { return e2e::run_svcctl_ok(svcd.data_dir(), args); };
  for (int i = 1; i <= count; ++i) {
    auto n = std::to_string(i);
    team_ledger t;
    t.id = e2e::json_str(ctl({"team", "create", "--name", "chaos team " + n, "--owner-email",
                              "chaos" + n + "@example.com", "--credits", std::to_string(opening_credits)}),
                         "id");
    t.granted = opening_credits;
    auto write = ctl({"key", "create", "--team", t.id, "--scope", "write"});
    t.write_key = e2e::json_str(write, "key");
    t.write_key_id = e2e::json_str(write, "id");
    t.full_key = e2e::json_str(ctl({"key", "create", "--team", t.id, "--scope", "full"}), "key");
    // The load and the checks must never wait for a rate bucket.
    for (const char* bucket : {"images_post", "files_post", "webhook_endpoints_post", "reads"})
      ctl({"team", "limits", "--team", t.id, "--bucket", bucket, "--capacity", "10000", "--per-minute", "60000"});
    book.with([&](ledger_state& b) { b.teams.push_back(std::move(t)); });
  }
}

bool wait_ready(const e2e::svcd_process& svcd) {
  e2e::http_client admin{svcd.admin_url()};
  return e2e::wait_until(
    [&] {
      try {
        return admin.get("/readyz").status == 200;
      } catch (const std::exception&) {
        admin.close();
        return false;
      }
    },
    30s, 50ms);
}

std::uint64_t total_requests(const ledger_state& b, std::size_t which) {
  std::uint64_t n = 0;
  for (auto& row : b.counts)
    n += row[which];
  return n;
}

std::uint64_t events_minted(const check_memory& memory) {
  std::uint64_t n = 0;
  for (auto& feed : memory.events)
    n += feed.size();
  return n;
}

void print_cycle(int cycle, const campaign_options& o, std::chrono::milliseconds load, ledger& book,
                 const check_memory& memory, const delivery_recorder& hooks, const violations& found) {
  auto [acknowledged, unanswered, jobs] = book.with([](ledger_state& b) {
    std::size_t jobs = 0;
    for (auto& t : b.teams)
      jobs += t.jobs.size();
    return std::tuple{total_requests(b, 0), total_requests(b, 3), jobs};
  });
  auto d = hooks.totals();
  std::printf("cycle %d/%d: %.2f s of load, SIGKILL, restart, checked; so far %llu requests acknowledged, %llu "
              "unanswered, %zu jobs, %llu events, %llu deliveries owed, %llu delivered (%llu duplicates), "
              "%zu violations\n",
              cycle, o.cycles, static_cast<double>(load.count()) / 1000.0,
              static_cast<unsigned long long>(acknowledged), static_cast<unsigned long long>(unanswered), jobs,
              static_cast<unsigned long long>(events_minted(memory)),
              static_cast<unsigned long long>(memory.deliveries_owed), static_cast<unsigned long long>(d.delivered),
              static_cast<unsigned long long>(d.duplicates), found.count());
  std::fflush(stdout);
}

void print_summary(const campaign_options& o, int cycles_done, steady::duration took, ledger& book,
                   const std::vector<team_view>& teams, const check_memory& memory, const delivery_recorder& hooks,
                   const violations& found) {
  auto b = book.with([](ledger_state& b) { return b; });
  std::printf("\nchaos summary: seed %llu, %d of %d cycles, %.0f s\n", static_cast<unsigned long long>(o.seed),
              cycles_done, o.cycles, std::chrono::duration<double>(took).count());
  std::printf("  %-18s %12s %8s %6s %10s\n", "requests", "acknowledged", "refused", "5xx", "unanswered");
  for (std::size_t op = 0; op < operation_count; ++op) {
    auto& c = b.counts[op];
    std::printf("  %-18s %12llu %8llu %6llu %10llu\n", std::string{name_of(static_cast<operation>(op))}.c_str(),
                static_cast<unsigned long long>(c[0]), static_cast<unsigned long long>(c[1]),
                static_cast<unsigned long long>(c[2]), static_cast<unsigned long long>(c[3]));
  }
  std::printf("  %-18s %12llu %8llu %6llu %10llu\n", "total", static_cast<unsigned long long>(total_requests(b, 0)),
              static_cast<unsigned long long>(total_requests(b, 1)),
              static_cast<unsigned long long>(total_requests(b, 2)),
              static_cast<unsigned long long>(total_requests(b, 3)));
  for (auto& [refusal, n] : b.refusals)
    std::printf("    %s: %llu\n", refusal.c_str(), static_cast<unsigned long long>(n));
  std::printf("  uncertain keyed creates sent again: %llu had happened (replayed), %llu had not (created then)\n",
              static_cast<unsigned long long>(b.keyed_resolved_replayed),
              static_cast<unsigned long long>(b.keyed_resolved_fresh));
  std::printf("  uncertain grants: %llu landed, %llu did not; uncertain key rotations that happened: %llu\n",
              static_cast<unsigned long long>(b.grants_resolved_landed),
              static_cast<unsigned long long>(b.grants_resolved_lost),
              static_cast<unsigned long long>(b.rotations_resolved_lost));
  std::map<std::string, std::size_t> statuses;
  std::size_t jobs = 0;
  for (auto& t : teams)
    for (auto& [id, job] : t.jobs) {
      ++statuses[job.status];
      ++jobs;
    }
  std::printf("  jobs: %zu (", jobs);
  const char* sep = "";
  for (auto& [status, n] : statuses) {
    std::printf("%s%s %zu", sep, status.c_str(), n);
    sep = ", ";
  }
  auto d = hooks.totals();
  std::printf(")\n  events: %llu minted; deliveries owed %llu; delivered %llu (endpoint, event) pairs, %llu "
              "duplicates; %llu first attempts failed on purpose; %llu requests in all\n",
              static_cast<unsigned long long>(events_minted(memory)),
              static_cast<unsigned long long>(memory.deliveries_owed), static_cast<unsigned long long>(d.delivered),
              static_cast<unsigned long long>(d.duplicates), static_cast<unsigned long long>(d.failed_on_purpose),
              static_cast<unsigned long long>(d.requests));
  std::printf("  violations: %zu\n", found.count());
  for (auto& [check, n] : found.per_check())
    std::printf("    %-40s %zu\n", check.c_str(), n);
  for (auto& v : found.shown())
    std::printf("    cycle %d %s %s: %s\n", v.cycle, v.check.c_str(), v.subject.c_str(), v.detail.c_str());
  if (found.count() > found.shown().size())
    std::printf("    (%zu more not shown: each check shows its first %zu)\n", found.count() - found.shown().size(),
                violations::shown_per_check);
  std::fflush(stdout);
}

} // namespace

int run_campaign(const campaign_options& o) {
  auto started = steady::now();
  std::printf("chaos: seed %llu, %d cycles, %d client threads, %d teams (again: scripts/chaos %d --seed %llu)\n",
              static_cast<unsigned long long>(o.seed), o.cycles, o.threads, o.teams, o.cycles,
              static_cast<unsigned long long>(o.seed));
  violations found;
  ledger book;
  delivery_recorder hooks{o.seed, failed_first_attempts};
  e2e::svcd_process svcd{svcd_options()};
  std::printf("chaos: svcd data directory %s\n", svcd.data_dir().c_str());
  std::fflush(stdout);
  make_teams(svcd, o.teams, book);

  check_memory memory;
  memory.events.resize(static_cast<std::size_t>(o.teams));
  std::mt19937_64 rng{o.seed};
  load clients{o.seed, o.threads, book, hooks, found};
  std::vector<team_view> teams;
  int cycle = 1;
  for (; cycle <= o.cycles; ++cycle) {
    clients.start({svcd.api_url(), svcd.admin_url(), svcd.admin_token()}, cycle);
    std::chrono::milliseconds load_time{
      std::uniform_int_distribution<std::int64_t>{o.load_min.count(), o.load_max.count()}(rng)};
    std::this_thread::sleep_for(load_time);
    clients.halt();
    svcd.kill9();
    clients.join();
    try {
      svcd.start();
      if (!wait_ready(svcd))
        throw std::runtime_error("GET /readyz did not answer 200 within 30 s\n" + svcd.log_tail());
      check_context cx{cycle, o, svcd, e2e::http_client{svcd.api_url()}, book, hooks, found, memory, rng};
      teams = check_after_restart(cx);
    } catch (const std::exception& e) {
      found.add(cycle, "restart-and-check", svcd.data_dir(), e.what());
      break;
    }
    print_cycle(cycle, o, load_time, book, memory, hooks, found);
  }
  if (svcd.running())
    if (int status = svcd.stop(); status != 0)
      found.add(cycle, "graceful-stop", svcd.data_dir(),
                "SIGTERM ended svcd with status " + std::to_string(status) + "\n" + svcd.log_tail());
  print_summary(o, std::min(cycle, o.cycles), steady::now() - started, book, teams, memory, hooks, found);
  if (found.count() > 0 || o.keep) {
    svcd.keep_data_dir();
    std::printf("chaos: data directory kept: %s (svcd log: %s)\n", svcd.data_dir().c_str(), svcd.log_path().c_str());
  }
  return found.count() == 0 ? 0 : 1;
}

} // namespace svc::chaos
