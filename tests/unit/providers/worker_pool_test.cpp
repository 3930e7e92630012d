#include "providers/worker_pool.hpp"

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

BOOST_AUTO_TEST_SUITE(providers_worker_pool)

using svc::providers::cancel_token;
using svc::providers::pool_task;
using svc::providers::worker_pool;
using namespace std::chrono_literals;

namespace {

// Shared state the tasks report into; tests wait on conditions, never sleep.
struct board {
  std::mutex m;
  std::condition_variable changed;
  int running = 0, max_running = 0, finished = 0, dropped = 0, saw_cancel = 0;
  bool gate_open = false;

  template <class Pred>
  bool wait(Pred pred, std::chrono::seconds limit = 30s) {
    std::unique_lock<std::mutex> lock(m);
    return changed.wait_for(lock, limit, [&] { return pred(*this); });
  }

  void update(const std::function<void(board&)>& f) {
    std::lock_guard<std::mutex> lock(m);
    f(*this);
    changed.notify_all();
  }

  // A task that holds its thread until the gate opens or its token fires.
  pool_task gated() {
    pool_task t;
    cancel_token token = t.cancel;
    t.run = [this, token] {
      update([](board& b) {
        b.max_running = std::max(b.max_running, ++b.running);
      });
      std::unique_lock<std::mutex> lock(m);
      changed.wait_for(lock, 60s, [&] { return gate_open || token.cancelled(); });
      --running;
      ++finished;
      saw_cancel += token.cancelled();
      changed.notify_all();
    };
    t.dropped = [this] { update([](board& b) { ++b.dropped; }); };
    return t;
  }

  void open_gate() {
    update([](board& b) { b.gate_open = true; });
  }
};

} // namespace

BOOST_AUTO_TEST_CASE(zero_threads_means_one_per_core) {
  worker_pool pool(0);
  BOOST_TEST(pool.threads() == std::max(1u, std::thread::hardware_concurrency()));
}

BOOST_AUTO_TEST_CASE(runs_at_most_n_tasks_at_once) {
  board b;
  worker_pool pool(3);
  BOOST_TEST(pool.threads() == 3u);
  for (int i = 0; i < 7; ++i) pool.submit(b.gated());
  BOOST_REQUIRE(b.wait([](board& s) { return s.running == 3; }));
  BOOST_TEST(pool.running() == 3u);
  BOOST_TEST(pool.queued() == 4u);
  b.open_gate();
  BOOST_REQUIRE(b.wait([](board& s) { return s.finished == 7; }));
  BOOST_TEST(b.max_running == 3);
  BOOST_TEST(b.dropped == 0);
}

BOOST_AUTO_TEST_CASE(tasks_start_in_submission_order) {
  std::mutex m;
  std::vector<int> order;
  std::condition_variable done;
  {
    worker_pool pool(1);
    for (int i = 0; i < 20; ++i)
      pool.submit({[&, i] {
        std::lock_guard<std::mutex> lock(m);
        order.push_back(i);
        done.notify_all();
      }, {}, {}});
    std::unique_lock<std::mutex> lock(m);
    BOOST_REQUIRE(done.wait_for(lock, 30s, [&] { return order.size() == 20; }));
  }
  for (int i = 0; i < 20; ++i) BOOST_TEST(order[static_cast<std::size_t>(i)] == i);
}

BOOST_AUTO_TEST_CASE(shutdown_drops_queued_tasks_and_cancels_running_ones) {
  board b;
  worker_pool pool(2);
  std::vector<cancel_token> tokens;
  for (int i = 0; i < 5; ++i) {
    auto t = b.gated();
    tokens.push_back(t.cancel);
    pool.submit(std::move(t));
  }
  BOOST_REQUIRE(b.wait([](board& s) { return s.running == 2; }));
  pool.shutdown(); // returns only after the running tasks returned
  BOOST_TEST(b.finished == 2);
  BOOST_TEST(b.saw_cancel == 2); // the gate never opened: they stopped on cancel
  BOOST_TEST(b.dropped == 3);
  for (const auto& t : tokens) BOOST_TEST(t.cancelled());
  BOOST_TEST(pool.queued() == 0u);
  BOOST_TEST(pool.running() == 0u);
}

BOOST_AUTO_TEST_CASE(submit_after_shutdown_drops_at_once) {
  board b;
  worker_pool pool(1);
  pool.shutdown();
  pool.shutdown(); // idempotent
  auto t = b.gated();
  const cancel_token token = t.cancel;
  pool.submit(std::move(t));
  BOOST_TEST(b.dropped == 1);
  BOOST_TEST(b.finished == 0);
  BOOST_TEST(token.cancelled());
}

BOOST_AUTO_TEST_CASE(a_task_cancelled_while_queued_is_dropped_not_run) {
  board b;
  worker_pool pool(1);
  pool.submit(b.gated());
  BOOST_REQUIRE(b.wait([](board& s) { return s.running == 1; }));
  auto queued = b.gated();
  queued.cancel.cancel();
  pool.submit(std::move(queued));
  b.open_gate();
  BOOST_REQUIRE(b.wait([](board& s) { return s.dropped == 1; }));
  BOOST_TEST(b.finished == 1);
}

BOOST_AUTO_TEST_CASE(a_throwing_task_does_not_kill_its_worker) {
  board b;
  worker_pool pool(1);
  pool.submit({[] { throw std::runtime_error("boom"); }, {}, {}});
  pool.submit(b.gated());
  b.open_gate();
  BOOST_REQUIRE(b.wait([](board& s) { return s.finished == 1; }));
}

BOOST_AUTO_TEST_CASE(destructor_shuts_down_cleanly) {
  board b;
  {
    worker_pool pool(1);
    pool.submit(b.gated());
    pool.submit(b.gated());
    BOOST_REQUIRE(b.wait([](board& s) { return s.running == 1; }));
  }
  BOOST_TEST(b.finished == 1);
  BOOST_TEST(b.saw_cancel == 1);
  BOOST_TEST(b.dropped == 1);
}

BOOST_AUTO_TEST_SUITE_END()
