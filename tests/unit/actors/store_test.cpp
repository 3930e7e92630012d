#include "actors/store.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

#include "actor_fixture.hpp"
#include "persistence/value_codec.hpp"
#include "tests/support/read_results.hpp"

BOOST_AUTO_TEST_SUITE(actors_store)

namespace {

using namespace svc::actors;
using namespace svc::persistence;
using svc::schema::balance_record;

write_batch text_batch(table t, std::string key, std::string value) {
  write_batch b;
  b.put(t, std::move(key), encode_text(value));
  return b;
}

// Reads one reply already in the mailbox of another scoped actor (another writer).
template <class T>
svc::test::reply<T> receive_on(caf::scoped_actor& writer) {
  svc::test::reply<T> out;
  writer->receive([&](T& x) { out.value = std::move(x); out.answered = true; },
                  [&](caf::error& err) { out.error = std::move(err); out.answered = true; },
                  caf::after(std::chrono::seconds{0}) >> [] {});
  return out;
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

// A group whose transaction fails is committed batch by batch: one writer's
// bad batch fails that writer (and its later batches of the group, which may
// build on it), never the others.
BOOST_AUTO_TEST_CASE(a_failing_batch_fails_only_its_writer_and_its_later_batches) {
  caf::scoped_actor other{sys};
  self->send(store, commit_atom::value, text_batch(table::meta, "a1", "1"));
  other->send(store, commit_atom::value, text_batch(table::meta, std::string(600, 'k'), "key too long for LMDB"));
  self->send(store, commit_atom::value, text_batch(table::meta, "a2", "2"));
  other->send(store, commit_atom::value, text_batch(table::meta, "b2", "2"));
  run_pending();
  for (int i = 0; i < 2; ++i) {
    auto r = receive<bool>();
    BOOST_TEST_CONTEXT("reply " << i << " to the good writer") {
      BOOST_TEST((r.value == std::optional<bool>{true}));
    }
  }
  for (int i = 0; i < 2; ++i) {
    auto r = receive_on<bool>(other);
    BOOST_TEST_CONTEXT("reply " << i << " to the failing writer") {
      BOOST_TEST(r.answered);
      BOOST_TEST(!r.value);
      BOOST_TEST((svc::actors::to_api_error(r.error).code == svc::schema::error_code::internal_error));
    }
  }
  BOOST_TEST(svc::test::found(env->get(table::meta, "a1")).has_value());
  BOOST_TEST(svc::test::found(env->get(table::meta, "a2")).has_value());
  BOOST_TEST(!svc::test::found(env->get(table::meta, "b2")));
  auto& st = state_of<store_state>(store);
  BOOST_TEST(st.batches == 2u);
  BOOST_TEST(st.commits == 4u); // the group, then a1, the bad batch and a2 alone
  // The store keeps working after a failed transaction.
  auto r = ask<bool>(store, commit_atom::value, text_batch(table::meta, "after", "1"));
  BOOST_TEST((r.value == std::optional<bool>{true}));
}

BOOST_AUTO_TEST_CASE(a_failed_chained_batch_fails_the_writers_later_chained_batches_until_it_resumes) {
  caf::scoped_actor other{sys};
  // Two flushes: the failure is known before the later batches arrive.
  self->send(store, chained_commit_atom::value, text_batch(table::meta, std::string(600, 'k'), "too long"));
  run_pending();
  auto failed = receive<bool>();
  BOOST_TEST((svc::actors::to_api_error(failed.error).code == svc::schema::error_code::internal_error));
  self->send(store, chained_commit_atom::value, text_batch(table::meta, "built_on_it", "1"));
  self->send(store, commit_atom::value, text_batch(table::meta, "plain", "1")); // not part of the chain
  other->send(store, chained_commit_atom::value, text_batch(table::meta, "other_chain", "1"));
  run_pending();
  auto refused = receive<bool>();
  BOOST_TEST(refused.answered);
  BOOST_TEST(!refused.value);
  BOOST_TEST((svc::actors::to_api_error(refused.error).code == svc::schema::error_code::internal_error));
  BOOST_TEST((receive<bool>().value == std::optional<bool>{true}));
  BOOST_TEST((receive_on<bool>(other).value == std::optional<bool>{true}));
  BOOST_TEST(!svc::test::found(env->get(table::meta, "built_on_it")));
  BOOST_TEST(svc::test::found(env->get(table::meta, "plain")).has_value());
  BOOST_TEST(svc::test::found(env->get(table::meta, "other_chain")).has_value());
  BOOST_TEST(state_of<store_state>(store).broken_chains.size() == 1u);

  self->send(store, chain_resume_atom::value);
  auto resumed = ask<bool>(store, chained_commit_atom::value, text_batch(table::meta, "after_resume", "1"));
  BOOST_TEST((resumed.value == std::optional<bool>{true}));
  BOOST_TEST(svc::test::found(env->get(table::meta, "after_resume")).has_value());
  BOOST_TEST(state_of<store_state>(store).broken_chains.empty());
}

BOOST_AUTO_TEST_CASE(a_chained_batch_in_the_same_group_as_the_failed_one_fails_with_it) {
  self->send(store, chained_commit_atom::value, text_batch(table::meta, std::string(600, 'k'), "too long"));
  self->send(store, chained_commit_atom::value, text_batch(table::meta, "same_group", "1"));
  run_pending();
  BOOST_TEST(!receive<bool>().value);
  BOOST_TEST(!receive<bool>().value);
  BOOST_TEST(!svc::test::found(env->get(table::meta, "same_group")));
}

BOOST_AUTO_TEST_CASE(a_writer_that_ends_with_its_chain_broken_is_forgotten) {
  {
    caf::scoped_actor writer{sys};
    writer->send(store, chained_commit_atom::value, text_batch(table::meta, std::string(600, 'k'), "too long"));
    run_pending();
    BOOST_TEST(!receive_on<bool>(writer).value);
    BOOST_TEST(state_of<store_state>(store).broken_chains.size() == 1u);
  }
  run_pending();
  BOOST_TEST(state_of<store_state>(store).broken_chains.empty());
}

// A store on a 2 MiB map: its writes grow it until it refuses them.
struct small_store {
  svc::test::temp_dir dir;
  std::unique_ptr<svc::persistence::environment> env;
  svc::actors::store_actor handle;
  int stored = 0; ///< keys k0.. committed through the actor

  explicit small_store(caf::actor_system& sys) {
    std::string error;
    env = svc::persistence::environment::open(dir.path, error, 2 << 20);
    if (!env)
      throw std::runtime_error(error);
    handle = sys.spawn(svc::actors::store, env.get(), true);
  }
};

write_batch big_value(const std::string& key) { return text_batch(table::events, key, std::string(20000, 'v')); }

// Commits 20 KB values through the store actor until one is refused; that reply.
svc::test::reply<bool> fill(svc::test::actor_fixture& f, small_store& s) {
  for (; s.stored < 1000; ++s.stored) {
    auto r = f.ask<bool>(s.handle, commit_atom::value, big_value("k" + std::to_string(s.stored)));
    if (!r.value)
      return r;
  }
  BOOST_FAIL("a 2 MiB map took 20 MB");
  return {};
}

BOOST_AUTO_TEST_CASE(a_full_store_refuses_growth_with_507_and_commits_the_deletes_of_the_same_group) {
  small_store s{sys};
  run_pending();
  auto refused = fill(*this, s);
  BOOST_TEST((svc::actors::to_api_error(refused.error).code == svc::schema::error_code::insufficient_storage));
  BOOST_TEST(svc::schema::info(svc::schema::error_code::insufficient_storage).status == 507);
  BOOST_TEST(state_of<store_state>(s.handle).refused == 1u);

  caf::scoped_actor cleaner{sys};
  write_batch growth;
  for (int i = 0; i < 10; ++i)
    growth.append(big_value("new" + std::to_string(i)));
  write_batch erase;
  erase.erase(table::events, "k0");
  self->send(s.handle, commit_atom::value, std::move(growth));
  cleaner->send(s.handle, commit_atom::value, std::move(erase));
  run_pending();
  auto grown = receive<bool>();
  BOOST_TEST((svc::actors::to_api_error(grown.error).code == svc::schema::error_code::insufficient_storage));
  BOOST_TEST((receive_on<bool>(cleaner).value == std::optional<bool>{true}));
  BOOST_TEST(!svc::test::found(s.env->get(table::events, "k0")));
  BOOST_TEST(!svc::test::found(s.env->get(table::events, "new0")));

  // Room freed by deletes takes writes again, without a restart.
  write_batch more;
  for (int i = 1; i < 4; ++i)
    more.erase(table::events, "k" + std::to_string(i));
  BOOST_TEST((ask<bool>(s.handle, commit_atom::value, std::move(more)).value == std::optional<bool>{true}));
  auto again = ask<bool>(s.handle, commit_atom::value, big_value("again"));
  BOOST_TEST((again.value == std::optional<bool>{true}));
  BOOST_TEST(svc::test::found(s.env->get(table::events, "again")).has_value());
  stop(s.handle);
}

BOOST_AUTO_TEST_CASE(crossing_80_percent_warns_once_and_again_only_after_falling_below_75) {
  small_store s{sys};
  run_pending();
  BOOST_TEST(state_of<store_state>(s.handle).use_warnings == 0u);
  fill(*this, s);
  fill(*this, s); // refused again: no second warning
  BOOST_TEST(state_of<store_state>(s.handle).use_warnings == 1u);
  BOOST_TEST(state_of<store_state>(s.handle).above_warning_level);
  write_batch half;
  for (int i = 0; i < s.stored / 2; ++i)
    half.erase(table::events, "k" + std::to_string(i));
  BOOST_TEST((ask<bool>(s.handle, commit_atom::value, std::move(half)).value == std::optional<bool>{true}));
  BOOST_TEST(!state_of<store_state>(s.handle).above_warning_level);
  fill(*this, s);
  BOOST_TEST(state_of<store_state>(s.handle).use_warnings == 2u);
  stop(s.handle);
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

BOOST_AUTO_TEST_SUITE_END()
