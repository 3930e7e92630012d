// The ledger when the store refuses one of its batches while a change
// computed from it is already on its way: the balance row and the hold rows
// change together or not at all.
#include "actors/ledger.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <tuple>

#include "actors/store.hpp"
#include "ledger_fixture.hpp"
#include "tests/support/read_results.hpp"

BOOST_AUTO_TEST_SUITE(actors_ledger_refusals)

namespace {

using namespace svc::actors;
using namespace svc::schema;
using svc::test::same;

// The store refuses a batch (here one with a key past LMDB's limit; a full
// store does the same with 507) while the ledger's next change, computed from
// it, is already on its way to the store in a later group commit: that one
// is refused too, and the balance row and the hold rows still agree, in
// memory and in LMDB.
struct refused_commit_fixture : svc::test::ledger_fixture {
  /// `first` reaches the store and is refused while `second` waits in the
  /// ledger's mailbox; the ledger then handles `second` before the refusal,
  /// and the store gets its batch in a group of its own.
  template <class First, class Second>
  void refuse_first_while_second_is_under_way(const ledger_actor& l, First first, Second second) {
    self->send(l, std::get<0>(first), std::get<1>(first));
    run_only(l);
    self->send(l, std::get<0>(second), std::get<1>(second));
    run_only(store); // refuses the first batch
    run_only(l);     // the second change, then the refusal
    sched.run();
  }
};

} // namespace

BOOST_FIXTURE_TEST_CASE(a_refused_admission_fails_the_admission_computed_from_it_and_the_books_stay_whole,
                        refused_commit_fixture) {
  open_team(100);
  auto l = spawn_ledger();
  auto doomed = admit_job("img_1", 20);
  doomed.writes.put(svc::persistence::table::jobs, std::string(600, 'k'), "x");
  refuse_first_while_second_is_under_way(l, std::make_tuple(admit_atom::value, std::move(doomed)),
                                         std::make_tuple(admit_atom::value, admit_job("img_2", 10)));
  for (int i = 0; i < 2; ++i) {
    auto r = receive<admission_result>();
    BOOST_TEST_CONTEXT("answer " << i) {
      BOOST_TEST(r.answered);
      BOOST_TEST(!r.value);
    }
  }
  BOOST_TEST(same(stored_balance(), 100, 0));
  BOOST_TEST(!stored_hold("img_2"));
  BOOST_TEST(!svc::test::found(tables.jobs.get("img_2")));
  BOOST_TEST(same(balance(l), 100, 0));
  BOOST_TEST(state_of<ledger_state>(l).holds.empty());

  // The same ledger goes on from what LMDB holds.
  auto next = ask<admission_result>(l, admit_atom::value, admit_job("img_3", 10));
  BOOST_REQUIRE(next.value);
  BOOST_TEST(same(next.value->balance, 90, 10));
  BOOST_TEST(same(stored_balance(), 90, 10));
  BOOST_TEST(stored_hold("img_3").has_value());
}

BOOST_FIXTURE_TEST_CASE(a_refused_settlement_leaves_its_hold_and_held_never_goes_negative, refused_commit_fixture) {
  open_team(100);
  auto l = spawn_ledger();
  BOOST_REQUIRE(ask<admission_result>(l, admit_atom::value, admit_job("img_1", 30)).value);
  auto doomed = settle_job("img_1", hold_status::charged, 1, clock->now(), 30);
  doomed.writes.put(svc::persistence::table::jobs, std::string(600, 'k'), "x");
  refuse_first_while_second_is_under_way(l, std::make_tuple(settle_atom::value, std::move(doomed)),
                                         std::make_tuple(admit_atom::value, admit_job("img_2", 10)));
  BOOST_TEST(!receive<balance_record>().value);
  BOOST_TEST(!receive<admission_result>().value);
  BOOST_TEST(same(stored_balance(), 70, 30));
  BOOST_TEST(stored_hold("img_1").has_value());
  BOOST_TEST(!stored_hold("img_2"));
  BOOST_TEST(same(balance(l), 70, 30));

  // The job actor settles again; the hold is charged once.
  auto charged = ask<balance_record>(l, settle_atom::value,
                                     settle_job("img_1", hold_status::charged, 1, clock->now(), 30));
  BOOST_REQUIRE(charged.value);
  BOOST_TEST(same(*charged.value, 70, 0));
  BOOST_TEST(same(stored_balance(), 70, 0));
  BOOST_TEST(!stored_hold("img_1"));
}

BOOST_AUTO_TEST_SUITE_END()
