#include "load.hpp"

#include <array>
#include <chrono>
#include <functional>

#include "operations.hpp"

namespace svc::chaos {
namespace {

using namespace std::chrono_literals;

struct weighted_operation {
  int weight;
  std::function<void(client&, std::size_t)> run;
};

// Creates dominate, as they do for a real client; the rarer operations still
// come up several times a cycle.
const std::array<weighted_operation, 9>& mix() {
  static const std::array<weighted_operation, 9> table{{
    {30, [](client& c, std::size_t t) { create_job(c, t, false); }},
    {8, [](client& c, std::size_t t) { create_job(c, t, true); }},
    {10, cancel_job},
    {6, upload_file},
    {2, create_or_delete_endpoint},
    {3, rotate_secret},
    {2, rotate_write_key},
    {4, grant_credits},
    {6, replay_create},
  }};
  return table;
}

} // namespace

load::load(std::uint64_t seed, int threads, ledger& book, delivery_recorder& hooks, violations& found)
  : seed_(seed), threads_(threads), book_(book), hooks_(hooks), found_(found) {}

load::~load() {
  halt();
  join();
}

void load::start(const std::vector<load_target>& targets, int cycle) {
  halted_ = false;
  for (int i = 0; i < threads_; ++i)
    clients_.emplace_back([this, target = targets[static_cast<std::size_t>(i + cycle) % targets.size()], cycle, i] {
      run_client(target, cycle, i);
    });
}

void load::wait_busy(std::chrono::milliseconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (busy_ == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(100us);
}

void load::halt() { halted_ = true; }

void load::join() {
  for (auto& t : clients_)
    t.join();
  clients_.clear();
}

void load::run_client(const load_target& target, int cycle, int index) {
  auto name = std::to_string(seed_) + "-c" + std::to_string(cycle) + "t" + std::to_string(index);
  client c{e2e::http_client{target.api_url},
           e2e::http_client{target.admin_url},
           target.admin_token,
           std::mt19937_64{std::hash<std::string>{}(name)},
           book_,
           hooks_,
           found_,
           cycle,
           name};
  c.api.set_timeout(15s);
  c.admin.set_timeout(15s);
  auto teams = book_.with([](ledger_state& b) { return static_cast<std::int64_t>(b.teams.size()); });
  int total = 0;
  for (auto& op : mix())
    total += op.weight;
  while (!halted_) {
    auto team = static_cast<std::size_t>(c.uniform(0, teams - 1));
    auto pick = c.uniform(0, total - 1);
    for (auto& op : mix()) {
      if (pick < op.weight) {
        ++busy_;
        op.run(c, team);
        --busy_;
        break;
      }
      pick -= op.weight;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds{c.uniform(0, 30)});
  }
}

} // namespace svc::chaos
