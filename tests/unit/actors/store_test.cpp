#include "actors/store.hpp"

#define BOOST_TEST_MODULE actors_store
#include <boost/test/unit_test.hpp>

#include <string>

#include "actor_fixture.hpp"
#include "persistence/value_codec.hpp"
#include "tests/support/read_results.hpp"

namespace {

using svc::actors::commit_atom;
using svc::actors::store_state;
using svc::persistence::encode_text;
using svc::persistence::table;
using svc::persistence::write_batch;
using svc::schema::balance_record;

write_batch text_batch(table t, std::string key, std::string value) {
  write_batch b;
  b.put(t, std::move(key), encode_text(value));
  return b;
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(store_suite, svc::test::actor_fixture)

BOOST_AUTO_TEST_CASE(batches_waiting_together_commit_in_one_transaction) {
  constexpr std::size_t n = 4;
  write_batch with_delete = text_batch(table::meta, "m2", "two");
  with_delete.erase(table::meta, "m1"); // deletes what an earlier batch of the same group put
  self->send(store, commit_atom::value, text_batch(table::meta, "m1", "one"));
  self->send(store, commit_atom::value, std::move(with_delete));
  write_batch balance;
  tables.balances.put(balance, "team_1", balance_record{"team_1", 42, 0, {}});
  self->send(store, commit_atom::value, std::move(balance));
  self->send(store, commit_atom::value, text_batch(table::key_hashes, "hash", "key_1"));
  BOOST_TEST(state_of<store_state>(store).commits == 0u);

  sched.run();

  for (std::size_t i = 0; i < n; ++i) {
    auto r = receive<bool>();
    BOOST_TEST_CONTEXT("reply " << i) {
      BOOST_TEST(r.answered);
      BOOST_TEST((r.value == std::optional<bool>{true}));
    }
  }
  auto& st = state_of<store_state>(store);
  BOOST_TEST(st.commits == 1u);
  BOOST_TEST(st.batches == n);
  BOOST_TEST(st.pending.empty());
  BOOST_TEST(!st.flush_scheduled);

  BOOST_TEST(!svc::test::found(env->get(table::meta, "m1")));
  BOOST_TEST((svc::test::found(tables.key_hashes.get("hash")) == std::optional<std::string>{"key_1"}));
  BOOST_TEST(svc::persistence::decode_text(*svc::test::found(env->get(table::meta, "m2"))).value() == "two");
  auto bal = svc::test::found(tables.balances.get("team_1"));
  BOOST_REQUIRE(bal);
  BOOST_TEST(bal->available == 42);
}

BOOST_AUTO_TEST_CASE(later_batches_make_another_transaction) {
  auto r1 = ask<bool>(store, commit_atom::value, text_batch(table::meta, "a", "1"));
  BOOST_TEST((r1.value == std::optional<bool>{true}));
  auto r2 = ask<bool>(store, commit_atom::value, text_batch(table::meta, "b", "2"));
  BOOST_TEST((r2.value == std::optional<bool>{true}));
  BOOST_TEST(state_of<store_state>(store).commits == 2u);
  BOOST_TEST(state_of<store_state>(store).batches == 2u);
  BOOST_TEST(env->count(table::meta) == 3u); // a, b and the format version
}

BOOST_AUTO_TEST_CASE(a_failing_group_fails_every_writer_and_writes_nothing) {
  self->send(store, commit_atom::value, text_batch(table::meta, "good", "1"));
  self->send(store, commit_atom::value, text_batch(table::meta, std::string(600, 'k'), "key too long for LMDB"));
  sched.run();
  for (int i = 0; i < 2; ++i) {
    auto r = receive<bool>();
    BOOST_TEST_CONTEXT("reply " << i) {
      BOOST_TEST(r.answered);
      BOOST_TEST(!r.value);
      BOOST_TEST((svc::actors::to_api_error(r.error).code == svc::schema::error_code::internal_error));
    }
  }
  BOOST_TEST(!svc::test::found(env->get(table::meta, "good")));
  BOOST_TEST(state_of<store_state>(store).commits == 1u);
  // The store keeps working after a failed transaction.
  auto r = ask<bool>(store, commit_atom::value, text_batch(table::meta, "after", "1"));
  BOOST_TEST((r.value == std::optional<bool>{true}));
  BOOST_TEST(svc::test::found(env->get(table::meta, "after")).has_value());
}

BOOST_AUTO_TEST_CASE(describe_reports_counters) {
  ask<bool>(store, commit_atom::value, text_batch(table::meta, "a", "1"));
  auto d = ask<svc::actors::actor_status>(store, svc::actors::describe_atom::value);
  BOOST_REQUIRE(d.value);
  BOOST_TEST(d.value->state == "commits=1 batches=1 pending=0");
}

// A stop with batches still queued commits and answers them first.
BOOST_AUTO_TEST_CASE(exit_with_queued_batches_still_commits_them) {
  self->send(store, commit_atom::value, text_batch(table::meta, "last", "words"));
  caf::anon_send_exit(store, caf::exit_reason::user_shutdown);
  sched.run();
  auto r = receive<bool>();
  BOOST_TEST(r.answered);
  BOOST_TEST((r.value == std::optional<bool>{true}));
  BOOST_TEST(svc::test::found(env->get(table::meta, "last")).has_value());
}

BOOST_AUTO_TEST_CASE(without_group_commit_each_batch_is_its_own_transaction) {
  // `--group-commit off`, the create benchmark's baseline.
  auto single = sys.spawn(svc::actors::store, env.get(), false);
  for (auto key : {"x", "y", "z"})
    self->send(single, commit_atom::value, text_batch(table::meta, key, "1"));
  sched.run();
  for (int i = 0; i < 3; ++i)
    BOOST_TEST((receive<bool>().value == std::optional<bool>{true}));
  auto& st = state_of<store_state>(single);
  BOOST_TEST(st.commits == 3u);
  BOOST_TEST(st.batches == 3u);
  BOOST_TEST(env->count(table::meta) == 4u); // x, y, z and the format version
  caf::anon_send_exit(single, caf::exit_reason::user_shutdown);
  sched.run();
}

BOOST_AUTO_TEST_SUITE_END()
