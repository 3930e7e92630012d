#include "actors/ledger.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

#include "actors/store.hpp"
#include "core/time_format.hpp"
#include "ledger_fixture.hpp"
#include "tests/support/read_results.hpp"

BOOST_AUTO_TEST_SUITE(actors_ledger)

namespace {

using namespace svc::actors;
using namespace svc::schema;
using svc::test::same;

svc::core::time_point at(const char* iso) { return *svc::core::parse_iso8601(iso); }

} // namespace

BOOST_FIXTURE_TEST_SUITE(ledger_suite, svc::test::ledger_fixture)

BOOST_AUTO_TEST_CASE(admit_holds_and_commits_the_job_rows_in_one_batch) {
  open_team(100);
  auto l = spawn_ledger();
  auto batches_before = state_of<store_state>(store).batches;
  self->send(l, admit_atom::value, admit_job("img_1", 30, "k1"));
  run_all_but_store();
  // Applied in memory at once, but nothing is durable (or answered) before the commit.
  BOOST_TEST(same(state_of<ledger_state>(l).balance, 70, 30));
  BOOST_TEST(!receive<admission_result>().answered);
  BOOST_TEST(!svc::test::found(tables.jobs.get("img_1")));
  BOOST_TEST(!stored_hold("img_1"));
  BOOST_TEST(same(stored_balance(), 100, 0));
  BOOST_TEST(!svc::test::found(tables.idempotency.get(idempotency_key_of("k1"))));

  sched.run();
  auto r = receive<admission_result>();
  BOOST_REQUIRE(r.value);
  BOOST_TEST(!r.value->replayed);
  BOOST_TEST(same(r.value->balance, 70, 30));
  BOOST_TEST(state_of<store_state>(store).batches == batches_before + 1);
  BOOST_TEST(same(stored_balance(), 70, 30));
  auto h = stored_hold("img_1");
  BOOST_REQUIRE(h);
  BOOST_TEST(h->credits == 30);
  BOOST_TEST(h->team_id == team);
  BOOST_TEST((h->status == hold_status::held));
  auto job = svc::test::found(tables.jobs.get("img_1"));
  BOOST_REQUIRE(job);
  BOOST_TEST((job->status == job_status::queued));
  BOOST_TEST(svc::test::found(tables.live_jobs.get("img_1")).has_value());
  BOOST_TEST(svc::test::found(tables.idempotency.get(idempotency_key_of("k1"))).has_value());
  BOOST_TEST(state_of<ledger_state>(l).holds.size() == 1u);
  BOOST_TEST(state_of<ledger_state>(l).admitting.empty());
}

BOOST_AUTO_TEST_CASE(insufficient_credits_holds_nothing_and_writes_nothing) {
  open_team(20);
  auto l = spawn_ledger();
  auto r = ask<admission_result>(l, admit_atom::value, admit_job("img_1", 21, "k1"));
  BOOST_TEST(!r.value);
  BOOST_TEST((code_of(r.error) == error_code::insufficient_credits));
  BOOST_TEST(svc::schema::info(code_of(r.error)).status == 402);
  BOOST_REQUIRE((r.error.context().match_elements<std::string, svc::schema::message_args>()));
  auto args = r.error.context().get_as<svc::schema::message_args>(1);
  BOOST_TEST(args["required"] == "21");
  BOOST_TEST(args["available"] == "20");
  BOOST_TEST(same(balance(l), 20, 0));
  BOOST_TEST(same(stored_balance(), 20, 0));
  BOOST_TEST(!stored_hold("img_1"));
  BOOST_TEST(!svc::test::found(tables.jobs.get("img_1")));
  BOOST_TEST(!svc::test::found(tables.live_jobs.get("img_1")));
  BOOST_TEST(!svc::test::found(tables.idempotency.get(idempotency_key_of("k1"))));
  BOOST_TEST(state_of<ledger_state>(l).holds.empty());
  BOOST_TEST(state_of<ledger_state>(l).admitting.empty());
}

BOOST_AUTO_TEST_CASE(bad_admissions_are_invalid_parameters) {
  open_team(100);
  auto l = spawn_ledger();
  BOOST_TEST((code_of(ask<admission_result>(l, admit_atom::value, admit_job("", 10)).error)
              == error_code::invalid_parameter));
  BOOST_TEST((code_of(ask<admission_result>(l, admit_atom::value, admit_job("img/1", 10)).error)
              == error_code::invalid_parameter));
  BOOST_TEST((code_of(ask<admission_result>(l, admit_atom::value, admit_job("img_1", -1)).error)
              == error_code::invalid_parameter));
  BOOST_REQUIRE(ask<admission_result>(l, admit_atom::value, admit_job("img_1", 10)).value);
  // A job holds once.
  auto again = ask<admission_result>(l, admit_atom::value, admit_job("img_1", 10));
  BOOST_TEST((code_of(again.error) == error_code::invalid_parameter));
  BOOST_TEST(same(balance(l), 90, 10));
  BOOST_TEST(same(stored_balance(), 90, 10));
}

BOOST_AUTO_TEST_CASE(same_key_while_committing_is_in_use_then_replays) {
  open_team(100);
  auto l = spawn_ledger();
  self->send(l, admit_atom::value, admit_job("img_1", 30, "k1"));
  run_all_but_store(); // the first create's commit waits at the store
  self->send(l, admit_atom::value, admit_job("img_2", 30, "k1"));
  run_all_but_store();
  auto second = receive<admission_result>();
  BOOST_REQUIRE(second.answered);
  BOOST_TEST(!second.value);
  BOOST_TEST((code_of(second.error) == error_code::idempotency_key_in_use));
  BOOST_TEST(svc::schema::info(code_of(second.error)).status == 409);
  BOOST_TEST(same(state_of<ledger_state>(l).balance, 70, 30));

  sched.run();
  auto first = receive<admission_result>();
  BOOST_REQUIRE(first.value);
  BOOST_TEST(!first.value->replayed);
  BOOST_TEST(state_of<ledger_state>(l).admitting.empty());

  // Once committed, the same key replays the stored answer and holds nothing.
  auto third = ask<admission_result>(l, admit_atom::value, admit_job("img_3", 30, "k1"));
  BOOST_REQUIRE(third.value);
  BOOST_TEST(third.value->replayed);
  BOOST_TEST(third.value->earlier.body == "img_1");
  BOOST_TEST(third.value->earlier.location == "/v1/images/img_1");
  BOOST_TEST(third.value->earlier.key == "k1");
  BOOST_TEST(third.value->earlier.status == 201);
  BOOST_TEST(same(third.value->balance, 70, 30));
  BOOST_TEST(same(stored_balance(), 70, 30));
  BOOST_TEST(!stored_hold("img_2"));
  BOOST_TEST(!stored_hold("img_3"));
  BOOST_TEST(!svc::test::found(tables.jobs.get("img_2")));
  BOOST_TEST(!svc::test::found(tables.jobs.get("img_3")));
  BOOST_TEST(svc::test::found(tables.idempotency.get(idempotency_key_of("k1")))->body == "img_1");
  // Another key is independent.
  auto other = ask<admission_result>(l, admit_atom::value, admit_job("img_4", 30, "k2"));
  BOOST_REQUIRE(other.value);
  BOOST_TEST(!other.value->replayed);
  BOOST_TEST(same(other.value->balance, 40, 60));
}

BOOST_AUTO_TEST_CASE(a_failed_create_frees_its_key) {
  open_team(10);
  auto l = spawn_ledger();
  auto refused = ask<admission_result>(l, admit_atom::value, admit_job("img_1", 30, "k1"));
  BOOST_TEST((code_of(refused.error) == error_code::insufficient_credits));
  auto retried = ask<admission_result>(l, admit_atom::value, admit_job("img_2", 10, "k1"));
  BOOST_REQUIRE(retried.value);
  BOOST_TEST(!retried.value->replayed);
}

BOOST_AUTO_TEST_CASE(an_expired_record_does_not_replay) {
  open_team(100);
  auto l = spawn_ledger();
  BOOST_REQUIRE(ask<admission_result>(l, admit_atom::value, admit_job("img_1", 30, "k1")).value);
  advance(std::chrono::duration_cast<std::chrono::milliseconds>(cfg.idempotency_ttl) - std::chrono::minutes{1});
  auto replay = ask<admission_result>(l, admit_atom::value, admit_job("img_2", 30, "k1"));
  BOOST_REQUIRE(replay.value);
  BOOST_TEST(replay.value->replayed);

  advance(std::chrono::minutes{1} + std::chrono::milliseconds{1});
  auto fresh = ask<admission_result>(l, admit_atom::value, admit_job("img_3", 30, "k1"));
  BOOST_REQUIRE(fresh.value);
  BOOST_TEST(!fresh.value->replayed);
  BOOST_TEST(same(fresh.value->balance, 40, 60));
  BOOST_TEST(stored_hold("img_3").has_value());
  BOOST_TEST(svc::test::found(tables.jobs.get("img_3")).has_value());
  auto record = svc::test::found(tables.idempotency.get(idempotency_key_of("k1")));
  BOOST_REQUIRE(record);
  BOOST_TEST(record->body == "img_3");
  BOOST_TEST((record->expires_at > clock->now()));
}

BOOST_AUTO_TEST_CASE(settle_charged_moves_held_to_charged_and_counts_usage) {
  open_team(100);
  auto l = spawn_ledger();
  BOOST_REQUIRE(ask<admission_result>(l, admit_atom::value, admit_job("img_1", 30)).value);
  BOOST_REQUIRE(ask<admission_result>(l, admit_atom::value, admit_job("img_2", 20)).value);
  BOOST_REQUIRE(ask<admission_result>(l, admit_atom::value, admit_job("img_3", 10)).value);

  auto c = ask<balance_record>(l, settle_atom::value,
                               settle_job("img_1", hold_status::charged, 2, at("2026-03-04T23:59:59Z")));
  BOOST_REQUIRE(c.value);
  BOOST_TEST(same(*c.value, 40, 30));
  BOOST_TEST(same(stored_balance(), 40, 30));
  BOOST_TEST(!stored_hold("img_1"));
  auto job = svc::test::found(tables.jobs.get("img_1"));
  BOOST_REQUIRE(job);
  BOOST_TEST((job->status == job_status::succeeded));
  BOOST_TEST(!svc::test::found(tables.live_jobs.get("img_1")));
  auto day = stored_usage("2026-03-04");
  BOOST_REQUIRE(day);
  BOOST_TEST(day->credits_charged == 30);
  BOOST_TEST(day->images == 2);
  BOOST_TEST(day->videos == 0);
  BOOST_TEST(day->date == "2026-03-04");

  // The same UTC day adds up; the next day has its own row.
  BOOST_REQUIRE(ask<balance_record>(l, settle_atom::value,
                                    settle_job("img_2", hold_status::charged, 1, at("2026-03-04T00:00:00Z")))
                  .value);
  BOOST_REQUIRE(ask<balance_record>(l, settle_atom::value,
                                    settle_job("img_3", hold_status::charged, 4, at("2026-03-05T00:00:00Z")))
                  .value);
  day = stored_usage("2026-03-04");
  BOOST_REQUIRE(day);
  BOOST_TEST(day->credits_charged == 50);
  BOOST_TEST(day->images == 3);
  auto next = stored_usage("2026-03-05");
  BOOST_REQUIRE(next);
  BOOST_TEST(next->credits_charged == 10);
  BOOST_TEST(next->images == 4);
  BOOST_TEST(same(balance(l), 40, 0));
  BOOST_TEST(same(stored_balance(), 40, 0));
  BOOST_TEST(state_of<ledger_state>(l).holds.empty());
}

BOOST_AUTO_TEST_CASE(settle_counts_a_video_as_one_video) {
  open_team(100);
  auto l = spawn_ledger();
  BOOST_REQUIRE(ask<admission_result>(l, admit_atom::value, admit_job("vid_1", 40)).value);
  auto s = settle_job("vid_1", hold_status::charged, 1, at("2026-03-04T12:00:00Z"));
  s.kind = svc::schema::job_kind::video;
  BOOST_REQUIRE(ask<balance_record>(l, settle_atom::value, std::move(s)).value);
  auto day = stored_usage("2026-03-04");
  BOOST_REQUIRE(day);
  BOOST_TEST(day->credits_charged == 40);
  BOOST_TEST(day->videos == 1);
  BOOST_TEST(day->images == 0);
}

BOOST_AUTO_TEST_CASE(settle_refunded_returns_the_credits) {
  open_team(100);
  auto l = spawn_ledger();
  BOOST_REQUIRE(ask<admission_result>(l, admit_atom::value, admit_job("img_1", 30)).value);
  auto r = ask<balance_record>(l, settle_atom::value,
                               settle_job("img_1", hold_status::refunded, 0, at("2026-03-04T12:00:00Z")));
  BOOST_REQUIRE(r.value);
  BOOST_TEST(same(*r.value, 100, 0));
  BOOST_TEST(same(stored_balance(), 100, 0));
  BOOST_TEST(!stored_hold("img_1"));
  BOOST_TEST(!stored_usage("2026-03-04"));
  auto job = svc::test::found(tables.jobs.get("img_1"));
  BOOST_REQUIRE(job);
  BOOST_TEST((job->status == job_status::failed));
  BOOST_TEST((job->cost_status == hold_status::refunded));
}

BOOST_AUTO_TEST_CASE(settle_to_held_is_invalid) {
  open_team(100);
  auto l = spawn_ledger();
  BOOST_REQUIRE(ask<admission_result>(l, admit_atom::value, admit_job("img_1", 30)).value);
  auto s = settle_job("img_1", hold_status::charged, 1, clock->now());
  s.to = hold_status::held;
  BOOST_TEST((code_of(ask<balance_record>(l, settle_atom::value, std::move(s)).error)
              == error_code::invalid_parameter));
  BOOST_TEST(same(balance(l), 70, 30));
  BOOST_TEST(stored_hold("img_1").has_value());
}

BOOST_AUTO_TEST_CASE(a_second_settle_moves_no_money) {
  open_team(100);
  auto l = spawn_ledger();
  BOOST_REQUIRE(ask<admission_result>(l, admit_atom::value, admit_job("img_1", 30)).value);
  BOOST_REQUIRE(ask<admission_result>(l, admit_atom::value, admit_job("img_2", 20)).value);
  auto when = at("2026-03-04T12:00:00Z");
  BOOST_REQUIRE(ask<balance_record>(l, settle_atom::value, settle_job("img_1", hold_status::charged, 1, when)).value);
  BOOST_REQUIRE(ask<balance_record>(l, settle_atom::value, settle_job("img_2", hold_status::refunded, 0, when)).value);
  BOOST_TEST(same(stored_balance(), 70, 0));

  for (auto to : {hold_status::charged, hold_status::refunded}) {
    for (auto job : {"img_1", "img_2"}) {
      // Refused (the successor of a job actor that died after settling asks again): the first stands.
      auto again = ask<balance_record>(l, settle_atom::value, settle_job(job, to, 1, when));
      BOOST_TEST((code_of(again.error) == error_code::invalid_state));
    }
  }
  BOOST_TEST(same(stored_balance(), 70, 0));
  auto day = stored_usage("2026-03-04");
  BOOST_REQUIRE(day);
  BOOST_TEST(day->credits_charged == 30);
  BOOST_TEST(day->images == 1);
  // A job that never held anything moves no money either.
  auto unknown = ask<balance_record>(l, settle_atom::value, settle_job("img_x", hold_status::refunded, 0, when));
  BOOST_TEST((code_of(unknown.error) == error_code::invalid_state));
  BOOST_TEST(same(balance(l), 70, 0));
}

BOOST_AUTO_TEST_CASE(a_respawned_ledger_restores_balance_and_open_holds) {
  open_team(100);
  auto when = at("2026-03-04T12:00:00Z");
  auto first = spawn_ledger();
  BOOST_REQUIRE(ask<admission_result>(first, admit_atom::value, admit_job("img_1", 30)).value);
  BOOST_REQUIRE(ask<admission_result>(first, admit_atom::value, admit_job("img_2", 20)).value);
  BOOST_REQUIRE(
    ask<balance_record>(first, settle_atom::value, settle_job("img_1", hold_status::refunded, 0, when)).value);
  stop(first);

  auto second = spawn_ledger(); // a restart: same LMDB, fresh actor
  BOOST_TEST(same(balance(second), 80, 20));
  auto& holds = state_of<ledger_state>(second).holds;
  BOOST_TEST(holds.size() == 1u);
  BOOST_TEST(holds.count("img_2") == 1u);
  BOOST_TEST(holds.count("img_1") == 0u); // erased on settle, not reloaded
  auto again = ask<balance_record>(second, settle_atom::value, settle_job("img_1", hold_status::refunded, 0, when));
  BOOST_TEST((code_of(again.error) == error_code::invalid_state));
  BOOST_TEST(same(balance(second), 80, 20));
  auto c = ask<balance_record>(second, settle_atom::value, settle_job("img_2", hold_status::charged, 1, when));
  BOOST_REQUIRE(c.value);
  BOOST_TEST(same(*c.value, 80, 0));
  BOOST_TEST(same(stored_balance(), 80, 0));
  stop(second);

  auto third = spawn_ledger();
  BOOST_TEST(same(balance(third), 80, 0));
  BOOST_TEST(state_of<ledger_state>(third).holds.empty());
  auto refund = ask<balance_record>(third, settle_atom::value, settle_job("img_2", hold_status::refunded, 0, when));
  BOOST_TEST((code_of(refund.error) == error_code::invalid_state));
  BOOST_TEST(same(balance(third), 80, 0));
  // Usage rows survive a respawn and keep adding up.
  BOOST_REQUIRE(ask<admission_result>(third, admit_atom::value, admit_job("img_3", 5)).value);
  BOOST_REQUIRE(ask<balance_record>(third, settle_atom::value, settle_job("img_3", hold_status::charged, 2, when)).value);
  auto day = stored_usage("2026-03-04");
  BOOST_REQUIRE(day);
  BOOST_TEST(day->credits_charged == 25);
  BOOST_TEST(day->images == 3);
}

BOOST_AUTO_TEST_CASE(credit_may_remove_down_to_zero) {
  open_team(100);
  auto l = spawn_ledger();
  auto up = ask<balance_record>(l, credit_atom::value, int64_t{50}, std::string{});
  BOOST_REQUIRE(up.value);
  BOOST_TEST(same(*up.value, 150, 0));
  auto too_much = ask<balance_record>(l, credit_atom::value, int64_t{-151}, std::string{});
  BOOST_TEST(!too_much.value);
  BOOST_TEST((code_of(too_much.error) == error_code::invalid_parameter));
  BOOST_TEST(same(stored_balance(), 150, 0));
  auto to_zero = ask<balance_record>(l, credit_atom::value, int64_t{-150}, std::string{});
  BOOST_REQUIRE(to_zero.value);
  BOOST_TEST(same(*to_zero.value, 0, 0));
  BOOST_TEST(same(stored_balance(), 0, 0));
  auto over = ask<balance_record>(l, credit_atom::value, int64_t{svc::actors::max_credits + 1}, std::string{});
  BOOST_TEST((code_of(over.error) == error_code::invalid_parameter));
}

BOOST_AUTO_TEST_CASE(admits_sent_together_never_overdraw) {
  open_team(100);
  auto l = spawn_ledger();
  constexpr int n = 25;
  for (int i = 0; i < n; ++i)
    self->send(l, admit_atom::value, admit_job("img_" + std::to_string(i), 10, "k" + std::to_string(i)));
  sched.run();
  int admitted = 0, refused = 0;
  for (int i = 0; i < n; ++i) {
    auto r = receive<admission_result>();
    BOOST_REQUIRE(r.answered);
    if (r.value)
      ++admitted;
    else if (code_of(r.error) == error_code::insufficient_credits)
      ++refused;
  }
  BOOST_TEST(admitted == 10);
  BOOST_TEST(refused == n - 10);
  BOOST_TEST(same(balance(l), 0, 100));
  BOOST_TEST(same(stored_balance(), 0, 100));
  BOOST_TEST(state_of<ledger_state>(l).holds.size() == 10u);
  bool more = false;
  svc::persistence::scan_range all;
  all.prefix = team + "/";
  BOOST_TEST(svc::test::scanned(tables.holds.page(all, 100, more)).size() == 10u);
  int jobs = 0;
  svc::test::require_ok(tables.live_jobs.for_each_key([&](std::string_view) { return ++jobs, true; }));
  BOOST_TEST(jobs == 10);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
