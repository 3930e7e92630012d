#include "actors/ledger_directory.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

#include "ledger_fixture.hpp"
#include "tests/support/read_results.hpp"

namespace {

using namespace svc::actors;
using namespace svc::schema;
using svc::test::same;

} // namespace

namespace svc::test {

struct ledger_directory_fixture : ledger_fixture {
  /// A directory and the team's ledger, holding 30 of 100 credits for img_1.
  std::pair<actors::ledger_directory_actor, ledger_actor> directory_with_a_hold() {
    open_team(100);
    auto dir = track(sys.spawn(actors::ledger_directory, ctx()));
    sched.run();
    auto first = ask<ledger_actor>(dir, resolve_atom::value, team);
    BOOST_REQUIRE(first.value);
    BOOST_REQUIRE(ask<admission_result>(*first.value, admit_atom::value, admit_job("img_1", 30)).value);
    return {dir, *first.value};
  }

  /// Once `gone` is gone: the directory dropped it and a new ledger, loaded
  /// from LMDB, holds img_1 again. That new ledger.
  ledger_actor reloaded(const actors::ledger_directory_actor& dir, const ledger_actor& gone) {
    BOOST_TEST(state_of<actors::ledger_directory_state>(dir).ledgers.empty());
    auto got = ask<balance_record>(dir, caf::get_atom::value, team);
    BOOST_REQUIRE(got.value);
    BOOST_TEST(same(*got.value, 70, 30));
    auto second = ask<ledger_actor>(dir, resolve_atom::value, team);
    BOOST_REQUIRE(second.value);
    BOOST_TEST((*second.value != gone));
    BOOST_TEST(state_of<actors::ledger_state>(*second.value).holds.count("img_1") == 1u);
    return *second.value;
  }
};

} // namespace svc::test

BOOST_AUTO_TEST_SUITE(actors_ledger_directory)

BOOST_FIXTURE_TEST_SUITE(ledger_directory_suite, svc::test::ledger_directory_fixture)

BOOST_AUTO_TEST_CASE(directory_checks_the_team_and_delegates) {
  open_team(100);
  auto dir = track(sys.spawn(svc::actors::ledger_directory, ctx()));
  sched.run();
  auto unknown = ask<balance_record>(dir, credit_atom::value, std::string{"team_nope"}, int64_t{5}, std::string{});
  BOOST_TEST(!unknown.value);
  BOOST_TEST((code_of(unknown.error) == error_code::resource_not_found));
  auto no_ledger = ask<ledger_actor>(dir, resolve_atom::value, std::string{"team_nope"});
  BOOST_TEST((code_of(no_ledger.error) == error_code::resource_not_found));
  auto credited = ask<balance_record>(dir, credit_atom::value, team, int64_t{5}, std::string{});
  BOOST_REQUIRE(credited.value);
  BOOST_TEST(same(*credited.value, 105, 0));

  auto resolved = ask<ledger_actor>(dir, resolve_atom::value, team);
  BOOST_REQUIRE(resolved.value);
  auto again = ask<ledger_actor>(dir, resolve_atom::value, team);
  BOOST_REQUIRE(again.value);
  BOOST_TEST((*again.value == *resolved.value)); // one ledger per team
  auto admitted = ask<admission_result>(*resolved.value, admit_atom::value, admit_job("img_1", 5));
  BOOST_REQUIRE(admitted.value);
  BOOST_TEST(same(admitted.value->balance, 100, 5));
  auto charged = ask<balance_record>(*resolved.value, settle_atom::value,
                                     settle_job("img_1", hold_status::charged, 1, clock->now()));
  BOOST_REQUIRE(charged.value);
  auto got = ask<balance_record>(dir, caf::get_atom::value, team);
  BOOST_REQUIRE(got.value);
  BOOST_TEST(same(*got.value, 100, 0));
  BOOST_TEST(state_of<svc::actors::ledger_directory_state>(dir).ledgers.size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_ledger_whose_commit_failed_reloads_its_books_and_stays) {
  auto [dir, first] = directory_with_a_hold();
  auto doomed = admit_job("img_2", 20);
  doomed.writes.put(svc::persistence::table::jobs, std::string(600, 'k'), "x"); // past LMDB's key limit
  auto failed = ask<admission_result>(first, admit_atom::value, std::move(doomed));
  BOOST_REQUIRE(failed.answered);
  BOOST_TEST((code_of(failed.error) == error_code::internal_error));
  // Memory went back to what LMDB holds; the same ledger serves on.
  auto again = ask<ledger_actor>(dir, resolve_atom::value, team);
  BOOST_REQUIRE(again.value);
  BOOST_TEST((*again.value == first));
  BOOST_TEST(same(balance(first), 70, 30));
  BOOST_TEST(state_of<svc::actors::ledger_state>(first).holds.count("img_2") == 0u);
  BOOST_TEST(state_of<svc::actors::ledger_state>(first).holds.count("img_1") == 1u);
  BOOST_TEST(!svc::test::found(tables.jobs.get("img_2")));
}

BOOST_AUTO_TEST_CASE(a_ledger_that_dies_is_respawned_and_the_directory_lives) {
  auto [dir, first] = directory_with_a_hold();
  self->send(first, svc::actors::fault_atom::value);
  run_pending();
  reloaded(dir, first);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
