#include "campaign.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <random>
#include <thread>

#include "checks.hpp"
#include "delivery_recorder.hpp"
#include "ledger.hpp"
#include "load.hpp"
#include "report.hpp"
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

std::vector<std::string> svcd_options(const std::vector<std::string>& more) {
  const std::vector<std::pair<std::string, std::string>> defaults{
    // Retries end within seconds, so every owed delivery can be awaited.
    {"--retry-schedule", "250ms,500ms,1s,2s"},
    {"--delivery-timeout", "5s"},
    // Jobs take a while, so a kill finds some queued and some rendering.
    {"--render-delay", "100ms"},
    {"--workers", "4"},
    // Outputs outlive the run, so the blob check finds every one.
    {"--output-ttl", "24h"},
  };
  // svcd refuses an option given twice: the caller's replace these.
  auto args = more;
  for (auto& [option, value] : defaults)
    if (std::find(more.begin(), more.end(), option) == more.end()) {
      args.push_back(option);
      args.push_back(value);
    }
  return e2e::webhook_svcd_args(args);
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

} // namespace

int run_campaign(const campaign_options& o) {
  auto started = steady::now();
  std::cout << "chaos: seed " << o.seed << ", " << o.cycles << " cycles, " << o.threads << " client threads, "
            << o.teams << " teams (again: scripts/chaos " << o.cycles << " --seed " << o.seed << ")" << std::endl;
  violations found;
  ledger book;
  delivery_recorder hooks{o.seed, failed_first_attempts};
  e2e::svcd_process svcd{svcd_options(o.svcd_args)};
  std::cout << "chaos: svcd data directory " << svcd.data_dir() << std::endl;
  make_teams(svcd, o.teams, book);

  check_memory memory;
  memory.events.resize(static_cast<std::size_t>(o.teams));
  report_sources sources{o, book, memory, hooks, found};
  std::mt19937_64 rng{o.seed};
  load clients{o.seed, o.threads, book, hooks, found};
  std::vector<team_view> teams;
  int cycles_done = 0;
  for (int cycle = 1; cycle <= o.cycles; ++cycle) {
    clients.start({svcd.api_url(), svcd.admin_url(), svcd.admin_token()}, cycle);
    std::chrono::milliseconds load_time{
      std::uniform_int_distribution<std::int64_t>{o.load_min.count(), o.load_max.count()}(rng)};
    std::this_thread::sleep_for(load_time);
    clients.wait_busy(500ms);
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
    print_cycle(sources, cycle, load_time);
    cycles_done = cycle;
  }
  if (svcd.running())
    if (int status = svcd.stop(); status != 0)
      found.add(cycles_done, "graceful-stop", svcd.data_dir(),
                "SIGTERM ended svcd with status " + std::to_string(status) + "\n" + svcd.log_tail());
  print_summary(sources, cycles_done, steady::now() - started, teams);
  if (found.count() > 0 || o.keep) {
    svcd.keep_data_dir();
    std::cout << "chaos: data directory kept: " << svcd.data_dir() << " (svcd log: " << svcd.log_path() << ")"
              << std::endl;
  }
  return found.count() == 0 ? 0 : 1;
}

} // namespace svc::chaos
