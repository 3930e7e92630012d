#include "actors/mailer.hpp"

#define BOOST_TEST_MODULE actors_mailer
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <caf/all.hpp>

#include "actors/registry.hpp"

// The mailer runs detached and blocks in its senders, so these tests use a
// real scheduler and threads: scripted senders record each call, and the
// tests wait for conditions with deadlines; retry delays are milliseconds.

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

  std::string send(const mail_message& m) override {
    std::lock_guard<std::mutex> lock{mutex_};
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
};

struct mailer_fixture {
  // Declared before the actor system: they outlive every mailer.
  scripted_sender primary, fallback;
  caf::actor_system_config caf_cfg;
  caf::actor_system sys{init(caf_cfg)};
  std::vector<caf::actor> spawned;

  static caf::actor_system_config& init(caf::actor_system_config& c) {
    c.set("scheduler.max-threads", 2);
    c.set("logger.verbosity", caf::atom("quiet"));
    return c;
  }

  ~mailer_fixture() {
    for (auto& a : spawned)
      stop(a);
  }

  mailer_actor spawn(std::vector<std::chrono::milliseconds> delays, bool with_fallback = true,
                     svc::actors::context ctx = {}) {
    auto h = sys.spawn<caf::detached>(svc::actors::mailer_with_retries, std::move(ctx), &primary,
                                      with_fallback ? &fallback : nullptr, std::move(delays));
    spawned.push_back(caf::actor_cast<caf::actor>(h));
    return h;
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
  BOOST_TEST((handed[0].at - calls[3].at < 5s));
}

BOOST_FIXTURE_TEST_CASE(without_a_working_fallback_the_message_counts_as_failed, mailer_fixture) {
  primary.script({}, "smtp greeting: timed out after 10000ms");
  auto alone = spawn({5ms}, false);
  caf::anon_send(alone, svc::actors::send_atom::value, sample());
  BOOST_TEST(wait_described(alone, "sent=0 fallback=0 failed=1 retrying=0"));
  BOOST_TEST(primary.calls().size() == 2u);

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

BOOST_FIXTURE_TEST_CASE(messages_waiting_for_a_retry_go_to_the_fallback_when_the_mailer_stops, mailer_fixture) {
  primary.script({}, "smtp connect to 127.0.0.1:1: Connection refused");
  auto mailer = spawn({10min});
  caf::anon_send(mailer, svc::actors::send_atom::value, sample("one"));
  caf::anon_send(mailer, svc::actors::send_atom::value, sample("two"));
  BOOST_TEST(wait_described(mailer, "sent=0 fallback=0 failed=0 retrying=2"));
  auto started = steady::now();
  stop(mailer); // with a 10-minute timer pending, it must still stop at once
  BOOST_TEST((steady::now() - started < 5s));
  auto handed = fallback.calls();
  BOOST_REQUIRE_EQUAL(handed.size(), 2u);
  BOOST_TEST(handed[0].message.subject == "one");
  BOOST_TEST(handed[1].message.subject == "two");
  BOOST_TEST(primary.calls().size() == 2u);
}

BOOST_FIXTURE_TEST_CASE(without_a_fallback_a_stop_gives_pending_messages_one_last_attempt, mailer_fixture) {
  primary.script({"open DIR/outbox/x.eml.tmp: No space left on device", "same again"}, "");
  auto mailer = spawn({10min}, false);
  caf::anon_send(mailer, svc::actors::send_atom::value, sample("one"));
  caf::anon_send(mailer, svc::actors::send_atom::value, sample("two"));
  BOOST_TEST(wait_described(mailer, "sent=0 fallback=0 failed=0 retrying=2"));
  stop(mailer);
  auto calls = primary.calls();
  BOOST_REQUIRE_EQUAL(calls.size(), 4u);
  BOOST_TEST(calls[2].message.subject == "one");
  BOOST_TEST(calls[3].message.subject == "two");
  BOOST_TEST(fallback.calls().empty());
}

BOOST_FIXTURE_TEST_CASE(the_mailer_registers_and_describes_itself_to_the_registry, mailer_fixture) {
  auto registry = sys.spawn(svc::actors::registry, std::chrono::milliseconds{1000});
  spawned.push_back(caf::actor_cast<caf::actor>(registry));
  svc::actors::context ctx;
  ctx.registry = registry;
  auto mailer = spawn({10ms}, true, ctx);
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
