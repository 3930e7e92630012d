#include "actors/ledger.hpp"

#define BOOST_TEST_MODULE actors_ledger
#include <boost/test/unit_test.hpp>

#include <string>

#include "actor_fixture.hpp"
#include "actors/ledger_directory.hpp"

namespace {

using svc::actors::charge_atom;
using svc::actors::credit_atom;
using svc::actors::hold_atom;
using svc::actors::ledger_actor;
using svc::actors::ledger_directory_actor;
using svc::actors::ledger_state;
using svc::actors::refund_atom;
using svc::schema::balance_record;
using svc::schema::error_code;
using svc::schema::hold_record;
using svc::schema::hold_status;

const std::string team = "team_1";

struct ledger_fixture : svc::test::actor_fixture {
  /// Stores `team`'s record and opening balance, as the team directory does.
  void open_team(int64_t available, const std::string& id = team) {
    svc::persistence::write_batch batch;
    svc::schema::team_record t;
    t.id = id;
    t.name = "Acme";
    tables.teams.put(batch, id, t);
    tables.balances.put(batch, id, balance_record{id, available, 0});
    auto ok = ask<bool>(store, svc::actors::commit_atom::value, std::move(batch));
    BOOST_REQUIRE(ok.value && *ok.value);
  }

  ledger_actor spawn_ledger() {
    auto h = track(sys.spawn(svc::actors::ledger, ctx(), team));
    sched.run();
    return h;
  }

  balance_record balance(const ledger_actor& l) {
    auto r = ask<balance_record>(l, caf::get_atom::value);
    BOOST_REQUIRE(r.value);
    return *r.value;
  }

  balance_record stored_balance() {
    auto b = tables.balances.get(team);
    BOOST_REQUIRE(b);
    return *b;
  }

  hold_record stored_hold(const std::string& job) {
    auto h = tables.holds.get(svc::actors::hold_key(team, job));
    BOOST_REQUIRE(h);
    return *h;
  }

  static error_code code_of(const caf::error& err) { return svc::actors::to_api_error(err).code; }
};

bool same(const balance_record& a, int64_t available, int64_t held) {
  return a.available == available && a.held == held;
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(ledger_suite, ledger_fixture)

BOOST_AUTO_TEST_CASE(hold_moves_credits_to_held_durably) {
  open_team(100);
  auto l = spawn_ledger();
  auto r = ask<balance_record>(l, hold_atom::value, std::string{"img_1"}, int64_t{30});
  BOOST_REQUIRE(r.value);
  BOOST_TEST(same(*r.value, 70, 30));
  BOOST_TEST(same(stored_balance(), 70, 30));
  auto h = stored_hold("img_1");
  BOOST_TEST(h.credits == 30);
  BOOST_TEST(h.team_id == team);
  BOOST_TEST((h.status == hold_status::held));
  BOOST_TEST(state_of<ledger_state>(l).holds.size() == 1u);
}

BOOST_AUTO_TEST_CASE(insufficient_credits_holds_nothing) {
  open_team(20);
  auto l = spawn_ledger();
  auto r = ask<balance_record>(l, hold_atom::value, std::string{"img_1"}, int64_t{21});
  BOOST_TEST(!r.value);
  BOOST_TEST((code_of(r.error) == error_code::insufficient_credits));
  BOOST_REQUIRE((r.error.context().match_elements<std::string, svc::schema::message_args>()));
  auto args = r.error.context().get_as<svc::schema::message_args>(1);
  BOOST_TEST(args["required"] == "21");
  BOOST_TEST(args["available"] == "20");
  BOOST_TEST(same(balance(l), 20, 0));
  BOOST_TEST(same(stored_balance(), 20, 0));
  BOOST_TEST(!tables.holds.get(svc::actors::hold_key(team, "img_1")));
  BOOST_TEST(state_of<ledger_state>(l).holds.empty());
}

BOOST_AUTO_TEST_CASE(second_hold_for_a_job_holds_nothing_more) {
  open_team(100);
  auto l = spawn_ledger();
  ask<balance_record>(l, hold_atom::value, std::string{"img_1"}, int64_t{30});
  auto again = ask<balance_record>(l, hold_atom::value, std::string{"img_1"}, int64_t{30});
  BOOST_REQUIRE(again.value);
  BOOST_TEST(same(*again.value, 70, 30));
  auto other_amount = ask<balance_record>(l, hold_atom::value, std::string{"img_1"}, int64_t{50});
  BOOST_REQUIRE(other_amount.value);
  BOOST_TEST(same(*other_amount.value, 70, 30));
  BOOST_TEST(same(stored_balance(), 70, 30));
  BOOST_TEST(stored_hold("img_1").credits == 30);
}

BOOST_AUTO_TEST_CASE(charge_settles_once) {
  open_team(100);
  auto l = spawn_ledger();
  ask<balance_record>(l, hold_atom::value, std::string{"img_1"}, int64_t{30});
  auto c = ask<hold_record>(l, charge_atom::value, std::string{"img_1"});
  BOOST_REQUIRE(c.value);
  BOOST_TEST((c.value->status == hold_status::charged));
  BOOST_TEST(same(balance(l), 70, 0));
  BOOST_TEST(same(stored_balance(), 70, 0));
  BOOST_TEST((stored_hold("img_1").status == hold_status::charged));
  auto again = ask<hold_record>(l, charge_atom::value, std::string{"img_1"});
  BOOST_REQUIRE(again.value);
  BOOST_TEST((again.value->status == hold_status::charged));
  auto refund = ask<hold_record>(l, refund_atom::value, std::string{"img_1"});
  BOOST_REQUIRE(refund.value);
  BOOST_TEST((refund.value->status == hold_status::charged));
  BOOST_TEST(same(balance(l), 70, 0));
  BOOST_TEST(same(stored_balance(), 70, 0));
}

BOOST_AUTO_TEST_CASE(refund_settles_once) {
  open_team(100);
  auto l = spawn_ledger();
  ask<balance_record>(l, hold_atom::value, std::string{"img_1"}, int64_t{30});
  auto r = ask<hold_record>(l, refund_atom::value, std::string{"img_1"});
  BOOST_REQUIRE(r.value);
  BOOST_TEST((r.value->status == hold_status::refunded));
  BOOST_TEST(same(balance(l), 100, 0));
  auto again = ask<hold_record>(l, refund_atom::value, std::string{"img_1"});
  BOOST_REQUIRE(again.value);
  BOOST_TEST((again.value->status == hold_status::refunded));
  auto charge = ask<hold_record>(l, charge_atom::value, std::string{"img_1"});
  BOOST_REQUIRE(charge.value);
  BOOST_TEST((charge.value->status == hold_status::refunded));
  BOOST_TEST(same(balance(l), 100, 0));
  BOOST_TEST(same(stored_balance(), 100, 0));
  BOOST_TEST((stored_hold("img_1").status == hold_status::refunded));
  // A settled job id cannot be held again.
  auto rehold = ask<balance_record>(l, hold_atom::value, std::string{"img_1"}, int64_t{30});
  BOOST_REQUIRE(rehold.value);
  BOOST_TEST(same(*rehold.value, 100, 0));
}

BOOST_AUTO_TEST_CASE(unknown_job_is_not_found) {
  open_team(100);
  auto l = spawn_ledger();
  auto c = ask<hold_record>(l, charge_atom::value, std::string{"img_x"});
  BOOST_TEST(!c.value);
  BOOST_TEST((code_of(c.error) == error_code::resource_not_found));
  auto r = ask<hold_record>(l, refund_atom::value, std::string{"img_x"});
  BOOST_TEST((code_of(r.error) == error_code::resource_not_found));
}

BOOST_AUTO_TEST_CASE(restarted_ledger_restores_balance_and_holds) {
  open_team(100);
  auto first = spawn_ledger();
  ask<balance_record>(first, hold_atom::value, std::string{"img_1"}, int64_t{30});
  ask<balance_record>(first, hold_atom::value, std::string{"img_2"}, int64_t{20});
  ask<hold_record>(first, refund_atom::value, std::string{"img_1"});
  stop(first);

  auto second = spawn_ledger(); // a restart: same LMDB, fresh actor
  BOOST_TEST(same(balance(second), 80, 20));
  BOOST_TEST(state_of<ledger_state>(second).holds.size() == 1u);
  auto again = ask<hold_record>(second, refund_atom::value, std::string{"img_1"});
  BOOST_REQUIRE(again.value);
  BOOST_TEST((again.value->status == hold_status::refunded));
  BOOST_TEST(same(balance(second), 80, 20));
  auto c = ask<hold_record>(second, charge_atom::value, std::string{"img_2"});
  BOOST_REQUIRE(c.value);
  BOOST_TEST((c.value->status == hold_status::charged));
  BOOST_TEST(same(balance(second), 80, 0));
  BOOST_TEST(same(stored_balance(), 80, 0));
  stop(second);

  auto third = spawn_ledger();
  auto refund = ask<hold_record>(third, refund_atom::value, std::string{"img_2"});
  BOOST_REQUIRE(refund.value);
  BOOST_TEST((refund.value->status == hold_status::charged));
  BOOST_TEST(same(balance(third), 80, 0));
  BOOST_TEST(state_of<ledger_state>(third).holds.empty());
}

BOOST_AUTO_TEST_CASE(credit_may_remove_down_to_zero) {
  open_team(100);
  auto l = spawn_ledger();
  auto up = ask<balance_record>(l, credit_atom::value, int64_t{50});
  BOOST_REQUIRE(up.value);
  BOOST_TEST(same(*up.value, 150, 0));
  auto too_much = ask<balance_record>(l, credit_atom::value, int64_t{-151});
  BOOST_TEST(!too_much.value);
  BOOST_TEST((code_of(too_much.error) == error_code::invalid_parameter));
  BOOST_TEST(same(stored_balance(), 150, 0));
  auto to_zero = ask<balance_record>(l, credit_atom::value, int64_t{-150});
  BOOST_REQUIRE(to_zero.value);
  BOOST_TEST(same(*to_zero.value, 0, 0));
  BOOST_TEST(same(stored_balance(), 0, 0));
  auto over = ask<balance_record>(l, credit_atom::value, int64_t{svc::actors::max_credits + 1});
  BOOST_TEST((code_of(over.error) == error_code::invalid_parameter));
}

BOOST_AUTO_TEST_CASE(holds_sent_together_never_overdraw) {
  open_team(100);
  auto l = spawn_ledger();
  constexpr int n = 25;
  for (int i = 0; i < n; ++i)
    self->send(l, hold_atom::value, "img_" + std::to_string(i), int64_t{10});
  sched.run();
  int held = 0, refused = 0;
  for (int i = 0; i < n; ++i) {
    auto r = receive<balance_record>();
    BOOST_REQUIRE(r.answered);
    if (r.value)
      ++held;
    else if (code_of(r.error) == error_code::insufficient_credits)
      ++refused;
  }
  BOOST_TEST(held == 10);
  BOOST_TEST(refused == n - 10);
  BOOST_TEST(same(balance(l), 0, 100));
  BOOST_TEST(same(stored_balance(), 0, 100));
  BOOST_TEST(state_of<ledger_state>(l).holds.size() == 10u);
}

BOOST_AUTO_TEST_CASE(directory_checks_the_team_and_delegates) {
  open_team(100);
  auto dir = track(sys.spawn(svc::actors::ledger_directory, ctx()));
  sched.run();
  auto unknown = ask<balance_record>(dir, credit_atom::value, std::string{"team_nope"}, int64_t{5});
  BOOST_TEST(!unknown.value);
  BOOST_TEST((code_of(unknown.error) == error_code::resource_not_found));
  auto credited = ask<balance_record>(dir, credit_atom::value, team, int64_t{5});
  BOOST_REQUIRE(credited.value);
  BOOST_TEST(same(*credited.value, 105, 0));
  auto held = ask<balance_record>(dir, hold_atom::value, team, std::string{"img_1"}, int64_t{5});
  BOOST_REQUIRE(held.value);
  BOOST_TEST(same(*held.value, 100, 5));
  auto charged = ask<hold_record>(dir, charge_atom::value, team, std::string{"img_1"});
  BOOST_REQUIRE(charged.value);
  BOOST_TEST((charged.value->status == hold_status::charged));
  auto got = ask<balance_record>(dir, caf::get_atom::value, team);
  BOOST_REQUIRE(got.value);
  BOOST_TEST(same(*got.value, 100, 0));
  BOOST_TEST(state_of<svc::actors::ledger_directory_state>(dir).ledgers.size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
