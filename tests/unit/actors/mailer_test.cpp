#include "actors/mailer.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <caf/all.hpp>

#include "actors/registry.hpp"
#include "actors/store.hpp"
#include "actors/supervision.hpp"
#include "persistence/environment.hpp"
#include "persistence/store_tables.hpp"
#include "tests/support/lmdb_fixture.hpp"
#include "tests/support/temp_dir.hpp"

BOOST_AUTO_TEST_SUITE(actors_mailer)

// The mailer runs detached and blocks in its senders, so these tests use a
// real scheduler and threads: scripted senders record each call, and the
// tests wait for conditions with deadlines; retry delays are milliseconds.
// Its queue lives in a real LMDB store in a temp dir, which a second mailer
// opens after the first stopped, as a restart would.

namespace {

using namespace std::chrono_literals;
using svc::actors::mailer_actor;
using svc::core::mail_message;
using steady = std::chrono::steady_clock;

// A sender answering from a script (then `otherwise`), recording each call.
class scripted_sender final : public svc::core::mail_sender {
public:
  struct call {
    mail_message message;
    steady::time_point at;
  };

  void script(std::vector<std::string> results, std::string otherwise = {}) {
    std::lock_guard<std::mutex> lock{mutex_};
    results_ = std::move(results);
    otherwise_ = std::move(otherwise);
  }

  /// Runs inside each send, before it answers (on the mailer's thread).
  void during(std::function<void()> f) {
    std::lock_guard<std::mutex> lock{mutex_};
    during_ = std::move(f);
  }

  std::string send(const mail_message& m) override {
    std::lock_guard<std::mutex> lock{mutex_};
    if (during_)
      during_();
    auto i = calls_.size();
    calls_.push_back({m, steady::now()});
    changed_.notify_all();
    return i < results_.size() ? results_[i] : otherwise_;
  }

  /// Waits until `n` calls were made; false if `limit` passed first.
  bool wait_calls(std::size_t n, std::chrono::milliseconds limit = 10s) {
    std::unique_lock<std::mutex> lock{mutex_};
    return changed_.wait_for(lock, limit, [&] { return calls_.size() >= n; });
  }

  std::vector<call> calls() {
    std::lock_guard<std::mutex> lock{mutex_};
    return calls_;
  }

private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> results_;
  std::string otherwise_;
  std::vector<call> calls_;
  std::function<void()> during_;
};

using svc::test::temp_dir;

struct mailer_fixture {
  // Declared before the actor system: they outlive every mailer.
  scripted_sender primary, fallback;
  temp_dir dir;
  std::unique_ptr<svc::persistence::environment> env = svc::test::open_environment(dir.path);
  svc::persistence::tables tables{*env};
  caf::actor_system_config caf_cfg;
  caf::actor_system sys{init(caf_cfg)};
  svc::actors::store_actor store = sys.spawn<caf::detached>(svc::actors::store, env.get(), true);
  std::vector<caf::actor> spawned;

  static caf::actor_system_config& init(caf::actor_system_config& c) {
    c.set("scheduler.max-threads", 2);
    c.set("logger.verbosity", caf::atom("quiet"));
    svc::actors::add_domain_error_category(c);
    return c;
  }

  ~mailer_fixture() {
    for (auto& a : spawned)
      stop(a);
    stop(store);
  }

  /// The context a mailer needs: the store, the tables and the clock.
  svc::actors::context ctx() const {
    svc::actors::context c;
    c.clock = svc::core::make_system_clock();
    c.tables = &tables;
    c.store = store;
    return c;
  }

  mailer_actor spawn(std::vector<std::chrono::milliseconds> delays, bool with_fallback = true) {
    return spawn_with(ctx(), std::move(delays), with_fallback);
  }

  mailer_actor spawn_with(svc::actors::context c, std::vector<std::chrono::milliseconds> delays,
                          bool with_fallback = true) {
    auto h = sys.spawn<caf::detached>(svc::actors::mailer_with_retries, std::move(c), &primary,
                                      with_fallback ? &fallback : nullptr, std::move(delays));
    spawned.push_back(caf::actor_cast<caf::actor>(h));
    return h;
  }

  /// The rows of the mail queue in LMDB, oldest first.
  std::vector<svc::schema::queued_mail> queued() const {
    std::vector<svc::schema::queued_mail> out;
    auto st = tables.mail_queue.for_each([&](const svc::schema::queued_mail& r) {
      out.push_back(r);
      return true;
    });
    BOOST_REQUIRE(st.ok());
    return out;
  }

  /// Waits until the queue in LMDB holds `n` rows.
  bool wait_queued(std::size_t n, std::chrono::milliseconds limit = 10s) {
    return wait_rows([n](auto& rows) { return rows.size() == n; }, limit);
  }

  /// Waits until `n` rows are in LMDB, each with one failed attempt stored.
  bool wait_failed_once(std::size_t n) {
    return wait_rows([n](auto& rows) {
      return rows.size() == n && std::all_of(rows.begin(), rows.end(), [](auto& r) { return r.attempts == 1; });
    });
  }

  /// Waits until the rows in LMDB satisfy `done`.
  bool wait_rows(const std::function<bool(const std::vector<svc::schema::queued_mail>&)>& done,
                 std::chrono::milliseconds limit = 10s) {
    auto deadline = steady::now() + limit;
    while (!done(queued())) {
      if (steady::now() >= deadline)
        return false;
      std::this_thread::sleep_for(2ms);
    }
    return true;
  }

  /// The mailer's one-line self-description.
  std::string describe(const mailer_actor& h) {
    caf::scoped_actor self{sys};
    std::string out = "(no answer)";
    self->request(h, 5s, svc::actors::describe_atom::value)
      .receive([&](svc::actors::actor_status& st) { out = st.state; },
               [&](caf::error& err) { out = "error: " + sys.render(err); });
    return out;
  }

  /// Waits until the late store has delivered `n` answers.
  template <class Late>
  static bool wait_until_answered(const Late& late, int n, std::chrono::milliseconds limit = 10s) {
    auto deadline = steady::now() + limit;
    while (late.answered.load() < n) {
      if (steady::now() >= deadline)
        return false;
      std::this_thread::sleep_for(2ms);
    }
    return true;
  }

  /// Waits until `describe(h) == expected` (the count changes just after a send returns).
  bool wait_described(const mailer_actor& h, const std::string& expected, std::chrono::milliseconds limit = 10s) {
    auto deadline = steady::now() + limit;
    while (describe(h) != expected) {
      if (steady::now() >= deadline)
        return false;
      std::this_thread::sleep_for(2ms);
    }
    return true;
  }

  /// Sends an exit and waits until the actor is gone.
  template <class Handle>
  void stop(const Handle& h) {
    caf::scoped_actor self{sys};
    self->monitor(h);
    self->send_exit(h, caf::exit_reason::user_shutdown);
    bool down = false;
    self->receive([&](caf::down_msg&) { down = true; }, caf::after(10s) >> [] {});
    BOOST_TEST(down);
  }
};

mail_message sample(std::string subject = "Webhook endpoint disabled") {
  return {"Svc <noreply@svc.test>", "owner@acme.test", std::move(subject), "Hello\n"};
}

} // namespace

BOOST_FIXTURE_TEST_CASE(a_message_the_primary_accepts_is_sent_once, mailer_fixture) {
  auto mailer = spawn({10ms, 10ms, 10ms});
  caf::anon_send(mailer, svc::actors::send_atom::value, sample());
  BOOST_REQUIRE(primary.wait_calls(1));
  BOOST_TEST(wait_described(mailer, "sent=1 fallback=0 failed=0 retrying=0"));
  BOOST_TEST(primary.calls().size() == 1u);
  BOOST_TEST(primary.calls()[0].message.subject == "Webhook endpoint disabled");
  BOOST_TEST(fallback.calls().empty());
}

namespace {

// A store that commits at once but holds its answers until `release` is
// set: the moment in which a scan of the queue (at start, or told by another
// writer) already finds a row the mailer's own commit has not confirmed.
struct late_answers {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::once_flag once;
  std::atomic<int> answered{0};
  /// Lets every held answer go (once; later calls do nothing).
  void let_go() {
    std::call_once(once, [this] { release.set_value(); });
  }
};

// Lets the late store's answers go when the test ends, however it ends, so
// the store can stop.
struct answers_let_go_at_exit {
  std::shared_ptr<late_answers> late;
  ~answers_let_go_at_exit() { late->let_go(); }
};

svc::actors::store_actor::behavior_type late_answering_store(svc::actors::store_actor::pointer self,
                                                              svc::persistence::environment* env,
                                                              std::shared_ptr<late_answers> late) {
  return {
    [=](svc::actors::commit_atom, svc::persistence::write_batch& batch) -> caf::result<bool> {
      auto st = env->commit(batch);
      auto promise = self->make_response_promise<bool>();
      late->released.wait();
      if (st.ok())
        promise.deliver(true);
      else
        promise.deliver(caf::make_error(caf::sec::runtime_error, st.message));
      ++late->answered;
      return promise;
    },
    [=](svc::actors::chained_commit_atom, svc::persistence::write_batch&) -> caf::result<bool> {
      return caf::make_error(caf::sec::unexpected_message);
    },
    [](svc::actors::chain_resume_atom) {},
    [](svc::actors::flush_atom) {},
    svc::actors::crash_on_fault(),
    [](svc::actors::describe_atom) -> svc::actors::actor_status { return {"late store", 0}; },
  };
}

} // namespace

// Issue 30's CI: under load, a mail went out twice. The row the mailer
// queued was committed, a scan of the queue took it and sent it, and then
// the commit's answer sent it again.
BOOST_FIXTURE_TEST_CASE(a_row_a_scan_finds_before_its_commit_is_answered_is_sent_once, mailer_fixture) {
  auto late = std::make_shared<late_answers>();
  answers_let_go_at_exit guard{late};
  auto slow = sys.spawn<caf::detached>(late_answering_store, env.get(), late);
  spawned.push_back(caf::actor_cast<caf::actor>(slow));
  auto c = ctx();
  c.store = slow;
  auto mailer = spawn_with(c, {10ms, 10ms, 10ms});
  BOOST_REQUIRE(wait_described(mailer, "sent=0 fallback=0 failed=0 retrying=0"));
  caf::anon_send(mailer, svc::actors::send_atom::value, sample());
  BOOST_REQUIRE(wait_queued(1));
  caf::anon_send(mailer, svc::actors::queued_atom::value); // another writer queued mail
  describe(mailer); // answered after the scan
  BOOST_TEST(primary.calls().empty(), "the scan took a row whose commit is not answered yet");
  late->let_go();
  BOOST_REQUIRE(wait_until_answered(*late, 1));
  BOOST_TEST(wait_described(mailer, "sent=1 fallback=0 failed=0 retrying=0"));
  BOOST_TEST(primary.calls().size() == 1u, "sent by the scan and again by the commit's answer");
  BOOST_TEST(wait_queued(0));
}

BOOST_FIXTURE_TEST_CASE(a_failed_send_is_retried_after_each_delay_until_it_succeeds, mailer_fixture) {
  primary.script({"smtp RCPT TO: 451 try later", "smtp connect to 127.0.0.1:1: refused"}, "");
  auto mailer = spawn({30ms, 60ms, 5000ms});
  caf::anon_send(mailer, svc::actors::send_atom::value, sample());
  BOOST_REQUIRE(primary.wait_calls(3));
  BOOST_TEST(wait_described(mailer, "sent=1 fallback=0 failed=0 retrying=0"));
  auto calls = primary.calls();
  BOOST_REQUIRE_EQUAL(calls.size(), 3u);
  BOOST_TEST((calls[1].at - calls[0].at >= 30ms));
  BOOST_TEST((calls[2].at - calls[1].at >= 60ms));
  BOOST_TEST(fallback.calls().empty());
}

BOOST_FIXTURE_TEST_CASE(after_the_last_retry_the_message_goes_to_the_fallback, mailer_fixture) {
  primary.script({}, "smtp RCPT TO: 550 no such user");
  auto mailer = spawn({10ms, 20ms, 30ms});
  auto m = sample();
  caf::anon_send(mailer, svc::actors::send_atom::value, m);
  BOOST_REQUIRE(fallback.wait_calls(1));
  BOOST_TEST(wait_described(mailer, "sent=0 fallback=1 failed=0 retrying=0"));
  auto calls = primary.calls();
  BOOST_REQUIRE_EQUAL(calls.size(), 4u); // the first attempt and three retries
  BOOST_TEST((calls[1].at - calls[0].at >= 10ms));
  BOOST_TEST((calls[2].at - calls[1].at >= 20ms));
  BOOST_TEST((calls[3].at - calls[2].at >= 30ms));
  auto handed = fallback.calls();
  BOOST_REQUIRE_EQUAL(handed.size(), 1u);
  BOOST_TEST(handed[0].message.to == m.to);
  BOOST_TEST(handed[0].message.subject == m.subject);
  BOOST_TEST(handed[0].message.body == m.body);
}

BOOST_FIXTURE_TEST_CASE(without_a_working_fallback_the_message_counts_as_failed, mailer_fixture) {
  primary.script({}, "smtp greeting: timed out after 10000ms");
  auto alone = spawn({5ms}, false);
  caf::anon_send(alone, svc::actors::send_atom::value, sample());
  BOOST_TEST(wait_described(alone, "sent=0 fallback=0 failed=1 retrying=0"));
  BOOST_TEST(primary.calls().size() == 2u);
  BOOST_TEST(wait_queued(0), "a message given up leaves the queue");
  stop(alone);

  fallback.script({}, "open DIR/outbox/x.eml.tmp: No space left on device");
  auto broken = spawn({5ms});
  caf::anon_send(broken, svc::actors::send_atom::value, sample());
  BOOST_TEST(wait_described(broken, "sent=0 fallback=0 failed=1 retrying=0"));
  BOOST_TEST(fallback.calls().size() == 1u);
}

BOOST_FIXTURE_TEST_CASE(a_retry_waits_without_holding_up_new_messages, mailer_fixture) {
  primary.script({"smtp DATA: 451 busy"}, "");
  auto mailer = spawn({10s});
  caf::anon_send(mailer, svc::actors::send_atom::value, sample("first"));
  BOOST_REQUIRE(primary.wait_calls(1));
  caf::anon_send(mailer, svc::actors::send_atom::value, sample("second"));
  BOOST_REQUIRE(primary.wait_calls(2, 2s));
  BOOST_TEST(wait_described(mailer, "sent=1 fallback=0 failed=0 retrying=1"));
  BOOST_TEST(primary.calls()[1].message.subject == "second");
}

// A clean stop leaves waiting mail where it is, in the queue, for the next start.
BOOST_FIXTURE_TEST_CASE(messages_waiting_for_a_retry_stay_queued_when_the_mailer_stops, mailer_fixture) {
  primary.script({}, "smtp connect to 127.0.0.1:1: Connection refused");
  auto mailer = spawn({10min});
  caf::anon_send(mailer, svc::actors::send_atom::value, sample("one"));
  caf::anon_send(mailer, svc::actors::send_atom::value, sample("two"));
  BOOST_TEST(wait_described(mailer, "sent=0 fallback=0 failed=0 retrying=2"));
  BOOST_REQUIRE(wait_failed_once(2));
  stop(mailer); // down within stop's 10 s, with a 10-minute timer pending
  auto rows = queued();
  BOOST_REQUIRE_EQUAL(rows.size(), 2u);
  BOOST_TEST(rows[0].message.subject == "one");
  BOOST_TEST(rows[1].message.subject == "two");
  for (auto& r : rows) {
    BOOST_TEST(r.attempts == 1);
    BOOST_TEST((r.due_at > std::chrono::system_clock::now() + 9min), "the retry deadline is stored");
  }
  BOOST_TEST(fallback.calls().empty());
  BOOST_TEST(primary.calls().size() == 2u);
}

// A restart (or a crash) on the same store: the new mailer takes the queue
// over, keeps each row's retry deadline and sends it then.
BOOST_FIXTURE_TEST_CASE(a_new_mailer_on_the_same_store_sends_the_queue_at_its_stored_deadlines, mailer_fixture) {
  primary.script({"smtp greeting: timed out after 500ms", "smtp greeting: timed out after 500ms"}, "");
  auto first = spawn({400ms, 10min});
  caf::anon_send(first, svc::actors::send_atom::value, sample("one"));
  caf::anon_send(first, svc::actors::send_atom::value, sample("two"));
  BOOST_REQUIRE(primary.wait_calls(2));
  BOOST_REQUIRE(wait_described(first, "sent=0 fallback=0 failed=0 retrying=2"));
  BOOST_REQUIRE(wait_failed_once(2));
  stop(first);
  BOOST_REQUIRE_EQUAL(primary.calls().size(), 2u);

  auto second = spawn({400ms, 10min});
  BOOST_REQUIRE(primary.wait_calls(4));
  auto calls = primary.calls();
  BOOST_TEST(calls[2].message.subject == "one");
  BOOST_TEST(calls[3].message.subject == "two");
  auto ms = [](steady::duration d) { return std::chrono::duration_cast<std::chrono::microseconds>(d).count(); };
  BOOST_TEST((calls[2].at - calls[0].at >= 400ms), "not before its stored deadline: " << ms(calls[2].at - calls[0].at));
  BOOST_TEST((calls[3].at - calls[1].at >= 400ms), "not before its stored deadline: " << ms(calls[3].at - calls[1].at));
  BOOST_TEST(wait_described(second, "sent=2 fallback=0 failed=0 retrying=0"));
  BOOST_TEST(wait_queued(0), "sent rows are erased");
  BOOST_TEST(fallback.calls().empty());
}

// A deadline still far away is kept by a restart: nothing is sent early.
BOOST_FIXTURE_TEST_CASE(a_new_mailer_keeps_a_later_deadline, mailer_fixture) {
  primary.script({"smtp DATA: 451 busy"}, "");
  auto first = spawn({10min});
  caf::anon_send(first, svc::actors::send_atom::value, sample());
  BOOST_REQUIRE(wait_failed_once(1));
  stop(first);
  auto second = spawn({10min});
  BOOST_TEST(wait_described(second, "sent=0 fallback=0 failed=0 retrying=1"));
  std::this_thread::sleep_for(200ms);
  BOOST_TEST(primary.calls().size() == 1u);
  BOOST_TEST(queued().size() == 1u);
}

// Mail a writer committed with its own change (an endpoint's auto-disable)
// is sent once the mailer is told.
BOOST_FIXTURE_TEST_CASE(mail_another_writer_queued_is_sent_when_the_mailer_is_told, mailer_fixture) {
  auto mailer = spawn({10ms});
  svc::persistence::write_batch batch;
  auto row = svc::actors::queue_mail(ctx(), batch, sample("from an endpoint"));
  BOOST_TEST(row.id.rfind("mail_", 0) == 0u);
  caf::scoped_actor self{sys};
  bool committed = false;
  self->request(store, 5s, svc::actors::commit_atom::value, std::move(batch))
    .receive([&](bool ok) { committed = ok; }, [&](caf::error& err) { BOOST_FAIL(sys.render(err)); });
  BOOST_REQUIRE(committed);
  caf::anon_send(mailer, svc::actors::queued_atom::value);
  BOOST_REQUIRE(primary.wait_calls(1));
  BOOST_TEST(primary.calls()[0].message.subject == "from an endpoint");
  BOOST_TEST(wait_described(mailer, "sent=1 fallback=0 failed=0 retrying=0"));
  BOOST_TEST(wait_queued(0));
}

// The sender hears `true` only once the row is durable, and the message is
// in LMDB while it is being sent.
BOOST_FIXTURE_TEST_CASE(a_message_is_queued_durably_before_it_is_acknowledged_and_sent, mailer_fixture) {
  std::size_t rows_while_sending = 0;
  primary.during([&] { rows_while_sending = queued().size(); });
  auto mailer = spawn({10ms});
  caf::scoped_actor self{sys};
  bool acknowledged = false;
  self->request(mailer, 5s, svc::actors::send_atom::value, sample())
    .receive([&](bool ok) { acknowledged = ok; }, [&](caf::error& err) { BOOST_FAIL(sys.render(err)); });
  BOOST_TEST(acknowledged);
  BOOST_REQUIRE(primary.wait_calls(1));
  BOOST_TEST(rows_while_sending == 1u);
  BOOST_TEST(wait_queued(0), "erased once sent");
}

BOOST_FIXTURE_TEST_CASE(the_mailer_registers_and_describes_itself_to_the_registry, mailer_fixture) {
  auto registry = sys.spawn(svc::actors::registry, std::chrono::milliseconds{1000});
  spawned.push_back(caf::actor_cast<caf::actor>(registry));
  auto with_registry = ctx();
  with_registry.registry = registry;
  auto mailer = spawn_with(with_registry, {10ms});
  caf::anon_send(mailer, svc::actors::send_atom::value, sample());
  BOOST_REQUIRE(primary.wait_calls(1));
  BOOST_TEST(wait_described(mailer, "sent=1 fallback=0 failed=0 retrying=0"));

  caf::scoped_actor self{sys};
  std::vector<svc::actors::actor_summary> rows;
  self->request(registry, 5s, svc::actors::list_atom::value, svc::actors::actor_filter{"mailer", "", 10})
    .receive([&](std::vector<svc::actors::actor_summary>& r) { rows = std::move(r); },
             [&](caf::error& err) { BOOST_FAIL("list failed: " << sys.render(err)); });
  BOOST_REQUIRE_EQUAL(rows.size(), 1u);
  BOOST_TEST(rows[0].kind == "mailer");
  BOOST_TEST(rows[0].id == "mailer");
  BOOST_TEST(rows[0].state == "sent=1 fallback=0 failed=0 retrying=0");
}

BOOST_AUTO_TEST_CASE(the_default_retry_delays_are_1s_5s_30s) {
  std::vector<std::chrono::milliseconds> expected{1s, 5s, 30s};
  BOOST_TEST((svc::actors::default_mail_retry_delays() == expected));
}

BOOST_AUTO_TEST_SUITE_END()
