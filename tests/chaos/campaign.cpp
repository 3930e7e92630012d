#include "campaign.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <random>
#include <thread>

#include "checks.hpp"
#include "deployment.hpp"
#include "delivery_recorder.hpp"
#include "ledger.hpp"
#include "load.hpp"
#include "report.hpp"
#include "support/json_util.hpp"
#include "support/svcctl_runner.hpp"
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
    // svcd's default: a request that reaches a shard's new owner while it
    // takes the shard up waits for it (with the e2e cluster's 3 s it was
    // once answered 503 `unavailable`).
    {"--request-deadline", "10s"},
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

// Creates `count` teams, spread evenly over the owners (a team's shard, and
// so its owner, comes with its id: teams another owner would crowd are left
// out of the load).
void make_teams(deployment& target, int count, ledger& book) {
  auto ctl = [&](const std::vector<std::string>& args) { return e2e::run_svcctl_ok(target.front().data_dir(), args); };
  auto owners = target.data_dirs().size();
  auto per_owner = (static_cast<std::size_t>(count) + owners - 1) / owners;
  std::map<std::string, std::size_t> held;
  for (int i = 1, made = 0; made < count; ++i) {
    if (i > 64 * count)
      throw std::runtime_error("no even spread of the teams over the nodes after " + std::to_string(i - 1) + " teams");
    auto n = std::to_string(i);
    team_ledger t;
    t.id = e2e::json_str(ctl({"team", "create", "--name", "chaos team " + n, "--owner-email",
                              "chaos" + n + "@example.com", "--credits", std::to_string(opening_credits)}),
                         "id");
    if (++held[target.owner_of(t.id)] > per_owner)
      continue;
    ++made;
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

} // namespace

int run_campaign(const campaign_options& o) {
  auto started = steady::now();
  std::cout << "chaos: seed " << o.seed << ", " << o.cycles << " cycles, " << o.threads << " client threads, "
            << o.teams << " teams" << (o.cluster > 0 ? ", a cluster of " + std::to_string(o.cluster) + " nodes" : "")
            << " (again: scripts/chaos " << o.cycles << " --seed " << o.seed
            << (o.cluster > 0 ? " --cluster " + std::to_string(o.cluster) : "") << ")" << std::endl;
  violations found;
  ledger book;
  delivery_recorder hooks{o.seed, failed_first_attempts};
  auto target = o.cluster > 0 ? cluster_of(o.cluster, svcd_options(o.svcd_args)) : single_node(svcd_options(o.svcd_args));
  std::cout << "chaos: data directories";
  for (auto& dir : target->data_dirs())
    std::cout << " " << dir;
  std::cout << std::endl;
  make_teams(*target, o.teams, book);

  check_memory memory;
  memory.events.resize(static_cast<std::size_t>(o.teams));
  report_sources sources{o, book, memory, hooks, found};
  std::mt19937_64 rng{o.seed};
  load clients{o.seed, o.threads, book, hooks, found};
  std::vector<team_view> teams;
  int cycles_done = 0;
  for (int cycle = 1; cycle <= o.cycles; ++cycle) {
    clients.start(target->targets(), cycle);
    std::chrono::milliseconds load_time{
      std::uniform_int_distribution<std::int64_t>{o.load_min.count(), o.load_max.count()}(rng)};
    // A cluster's shard move starts somewhere inside the load.
    auto stir_at = std::chrono::milliseconds{std::uniform_int_distribution<std::int64_t>{0, load_time.count()}(rng)};
    std::this_thread::sleep_for(stir_at);
    auto stirred = target->stir(rng);
    std::this_thread::sleep_for(load_time - stir_at);
    clients.wait_busy(500ms);
    clients.halt();
    auto killed = target->kill_one(rng);
    clients.join();
    try {
      target->restart();
      check_context cx{cycle, o, target->front(), target->data_dirs(), e2e::http_client{target->front().api_url()},
                       book, hooks, found, memory, rng};
      target->check(cx);
      teams = check_after_restart(cx);
    } catch (const std::exception& e) {
      found.add(cycle, "restart-and-check", killed, e.what());
      break;
    }
    print_cycle(sources, cycle, load_time);
    if (o.cluster > 0)
      std::cout << "  killed " << killed << (stirred.empty() ? "" : "; " + stirred) << std::endl;
    cycles_done = cycle;
  }
  if (auto why = target->stop(); !why.empty())
    found.add(cycles_done, "graceful-stop", "svcd", why);
  print_summary(sources, cycles_done, steady::now() - started, teams);
  if (found.count() > 0 || o.keep)
    std::cout << "chaos: data directories kept: " << target->keep() << std::endl;
  return found.count() == 0 ? 0 : 1;
}

} // namespace svc::chaos
