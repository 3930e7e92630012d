#include "actors/credit_history.hpp"

#include <boost/test/unit_test.hpp>

#include <limits>
#include <string>
#include <vector>

#include "actors/ledger.hpp"
#include "actors/ledger_directory.hpp"
#include "actors/store.hpp"
#include "actors/team_directory.hpp"
#include "core/ids.hpp"
#include "ledger_fixture.hpp"
#include "tests/support/read_results.hpp"

namespace {

using namespace svc::actors;
using namespace svc::schema;
using svc::test::same;

} // namespace

namespace svc::test {

struct history_fixture : ledger_fixture {
  /// `team_id`'s entries in LMDB, oldest first.
  std::vector<credit_entry_record> entries(const std::string& team_id = team) const {
    bool more = false;
    persistence::scan_range range;
    range.prefix = team_id + "/";
    return scanned(tables.credit_entries.page(range, std::numeric_limits<std::size_t>::max(), more));
  }

  /// Admits img `job` at `credits` and settles it `to`, as create and the job actor do.
  void run_job(const actors::ledger_actor& l, const std::string& job, int64_t credits, hold_status to) {
    BOOST_REQUIRE(ask<admission_result>(l, admit_atom::value, admit_job(job, credits)).value);
    BOOST_REQUIRE(ask<balance_record>(l, settle_atom::value, settle_job(job, to, 1, clock->now(), credits)).value);
  }

  /// The catalogue code and `state` argument of an error answer.
  static std::pair<error_code, std::string> refusal(const caf::error& err) {
    std::string state;
    if (err.context().match_elements<std::string, schema::message_args>()) {
      auto args = err.context().get_as<schema::message_args>(1);
      state = args["state"];
    }
    return {code_of(err), state};
  }
};

/// Whether `e` records this change.
bool entry_is(const schema::credit_entry_record& e, credit_entry_kind kind, int64_t amount, int64_t available,
        int64_t held, const std::string& job, const std::string& reason = {}) {
  return e.kind == kind && e.amount == amount && e.available_after == available && e.held_after == held
         && e.job_id == job && e.reason == reason && e.team_id == ledger_fixture::team;
}

} // namespace svc::test

using svc::test::entry_is;

BOOST_AUTO_TEST_SUITE(actors_credit_history)

BOOST_FIXTURE_TEST_SUITE(credit_history_suite, svc::test::history_fixture)

BOOST_AUTO_TEST_CASE(every_change_of_the_balance_leaves_its_entry_in_order) {
  open_team(100); // as a team stored before the history existed: no entry for it
  auto l = spawn_ledger();
  BOOST_REQUIRE(ask<balance_record>(l, credit_atom::value, int64_t{50}, std::string{"spring promotion"}).value);
  run_job(l, "img_1", 30, hold_status::charged);
  run_job(l, "img_2", 20, hold_status::refunded);
  auto refunded = ask<credit_entry_record>(l, refund_atom::value, std::string{"img_1"}, std::string{"blank render"});
  BOOST_REQUIRE(refunded.value);

  auto e = entries();
  BOOST_REQUIRE(e.size() == 6u);
  BOOST_TEST(entry_is(e[0], credit_entry_kind::grant, 50, 150, 0, "", "spring promotion"));
  BOOST_TEST(entry_is(e[1], credit_entry_kind::hold, -30, 120, 30, "img_1"));
  BOOST_TEST(entry_is(e[2], credit_entry_kind::charge, -30, 120, 0, "img_1"));
  BOOST_TEST(entry_is(e[3], credit_entry_kind::hold, -20, 100, 20, "img_2"));
  BOOST_TEST(entry_is(e[4], credit_entry_kind::release, 20, 120, 0, "img_2"));
  BOOST_TEST(entry_is(e[5], credit_entry_kind::refund, 30, 150, 0, "img_1", "blank render"));
  BOOST_TEST(refunded.value->id == e[5].id);
  for (std::size_t i = 1; i < e.size(); ++i)
    BOOST_TEST(e[i - 1].id < e[i].id);
  BOOST_TEST(svc::core::has_id_shape(e[0].id, "cre"));
  BOOST_TEST(same(stored_balance(), 150, 0));
  auto job = svc::test::found(tables.jobs.get("img_1"));
  BOOST_REQUIRE(job);
  BOOST_TEST((job->cost_status == hold_status::refunded));
  BOOST_TEST((job->status == svc::schema::job_status::succeeded));
}

BOOST_AUTO_TEST_CASE(an_entry_commits_in_the_same_batch_as_its_balance) {
  open_team(100);
  auto l = spawn_ledger();
  auto batches_before = state_of<store_state>(store).batches;
  self->send(l, credit_atom::value, int64_t{-40}, std::string{"chargeback"});
  run_all_but_store();
  BOOST_TEST(same(state_of<ledger_state>(l).balance, 60, 0));
  BOOST_TEST(entries().empty());
  BOOST_TEST(same(stored_balance(), 100, 0));

  sched.run();
  BOOST_REQUIRE(receive<balance_record>().value);
  BOOST_TEST(state_of<store_state>(store).batches == batches_before + 1);
  BOOST_TEST(same(stored_balance(), 60, 0));
  auto e = entries();
  BOOST_REQUIRE(e.size() == 1u);
  BOOST_TEST(entry_is(e[0], credit_entry_kind::grant, -40, 60, 0, "", "chargeback"));
}

BOOST_AUTO_TEST_CASE(a_refused_change_leaves_no_entry) {
  open_team(10);
  auto l = spawn_ledger();
  BOOST_TEST(!ask<balance_record>(l, credit_atom::value, int64_t{-11}, std::string{}).value);
  BOOST_TEST(!ask<admission_result>(l, admit_atom::value, admit_job("img_1", 11)).value);
  BOOST_TEST(entries().empty());
}

BOOST_AUTO_TEST_CASE(a_second_refund_is_invalid_state_and_changes_nothing) {
  open_team(100);
  auto l = spawn_ledger();
  run_job(l, "img_1", 30, hold_status::charged);
  BOOST_REQUIRE(ask<credit_entry_record>(l, refund_atom::value, std::string{"img_1"}, std::string{}).value);
  auto count = entries().size();

  auto again = ask<credit_entry_record>(l, refund_atom::value, std::string{"img_1"}, std::string{"twice"});
  BOOST_TEST(!again.value);
  BOOST_TEST((refusal(again.error) == std::pair<error_code, std::string>{error_code::invalid_state, "refunded"}));
  BOOST_TEST(svc::schema::info(error_code::invalid_state).status == 409);
  BOOST_TEST(same(balance(l), 100, 0));
  BOOST_TEST(same(stored_balance(), 100, 0));
  BOOST_TEST(entries().size() == count);
}

BOOST_AUTO_TEST_CASE(a_refund_while_the_first_commits_is_refused) {
  open_team(100);
  auto l = spawn_ledger();
  run_job(l, "img_1", 30, hold_status::charged);
  self->send(l, refund_atom::value, std::string{"img_1"}, std::string{});
  run_all_but_store(); // the first refund waits at the store; LMDB still says `charged`
  self->send(l, refund_atom::value, std::string{"img_1"}, std::string{});
  run_all_but_store();
  auto second = receive<credit_entry_record>();
  BOOST_REQUIRE(second.answered);
  BOOST_TEST((refusal(second.error).first == error_code::invalid_state));

  sched.run();
  BOOST_REQUIRE(receive<credit_entry_record>().value);
  BOOST_TEST(same(stored_balance(), 100, 0));
  BOOST_TEST(state_of<ledger_state>(l).refunding.empty());
  BOOST_TEST(entries().size() == 3u);
}

BOOST_AUTO_TEST_CASE(only_a_charged_job_of_the_team_is_refunded) {
  open_team(100);
  auto l = spawn_ledger();
  run_job(l, "img_1", 30, hold_status::refunded); // failed: its hold went back already
  BOOST_REQUIRE(ask<admission_result>(l, admit_atom::value, admit_job("img_2", 20)).value); // still running
  auto failed = ask<credit_entry_record>(l, refund_atom::value, std::string{"img_1"}, std::string{});
  BOOST_TEST((refusal(failed.error) == std::pair<error_code, std::string>{error_code::invalid_state, "failed"}));
  auto running = ask<credit_entry_record>(l, refund_atom::value, std::string{"img_2"}, std::string{});
  BOOST_TEST((refusal(running.error) == std::pair<error_code, std::string>{error_code::invalid_state, "queued"}));
  auto unknown = ask<credit_entry_record>(l, refund_atom::value, std::string{"img_9"}, std::string{});
  BOOST_TEST((refusal(unknown.error).first == error_code::resource_not_found));
  BOOST_TEST(same(stored_balance(), 80, 20));
  BOOST_TEST(entries().size() == 3u);
}

BOOST_AUTO_TEST_CASE(the_directory_routes_a_refund_to_the_jobs_team) {
  open_team(100);
  open_team(100, "team_2");
  auto dir = track(sys.spawn(svc::actors::ledger_directory, ctx()));
  sched.run();
  auto l = ask<svc::actors::ledger_actor>(dir, svc::actors::resolve_atom::value, team);
  BOOST_REQUIRE(l.value);
  run_job(*l.value, "img_1", 30, hold_status::charged);
  auto r = ask<credit_entry_record>(dir, refund_atom::value, std::string{"img_1"}, std::string{"sorry"});
  BOOST_REQUIRE(r.value);
  BOOST_TEST(r.value->team_id == team);
  BOOST_TEST(r.value->available_after == 100);
  BOOST_TEST(entries("team_2").empty());
  auto unknown = ask<credit_entry_record>(dir, refund_atom::value, std::string{"img_9"}, std::string{});
  BOOST_TEST((refusal(unknown.error).first == error_code::resource_not_found));
}

BOOST_AUTO_TEST_CASE(a_new_teams_opening_credits_are_its_first_grant) {
  auto teams = track(sys.spawn(svc::actors::team_directory, ctx(), svc::actors::bucket_directory_actor{}));
  sched.run();
  auto funded = ask<svc::schema::team_record>(teams, svc::actors::create_atom::value, svc::actors::new_team{"Acme", "a@b.c", 75});
  BOOST_REQUIRE(funded.value);
  auto e = entries(funded.value->id);
  BOOST_REQUIRE(e.size() == 1u);
  BOOST_TEST((e[0].kind == credit_entry_kind::grant));
  BOOST_TEST(e[0].amount == 75);
  BOOST_TEST(e[0].available_after == 75);
  BOOST_TEST(e[0].reason == "opening balance");
  auto empty = ask<svc::schema::team_record>(teams, svc::actors::create_atom::value, svc::actors::new_team{"Zero", "z@b.c", 0});
  BOOST_REQUIRE(empty.value);
  BOOST_TEST(entries(empty.value->id).empty());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
