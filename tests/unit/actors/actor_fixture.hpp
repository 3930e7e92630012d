#pragma once
// A deterministic actor test bed (caf-0.17-notes §5): CAF's testing scheduler
// (virtual time), a fresh LMDB environment in a temp dir, an offset clock moved
// together with virtual time, the store actor and a scoped actor for replies.
// Every actor spawned through `track` is sent an exit before the fixture ends.
// Messages from other threads (a worker pool) reach their actors when the
// test thread runs `run_pending` (as `ask`, `stop` and `advance` do) or `run_until`.

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>
#include <caf/all.hpp>
#include <caf/scheduler/test_coordinator.hpp>

#include "actors/context.hpp"
#include "actors/message_types.hpp"
#include "actors/store.hpp"
#include "core/clock.hpp"
#include "core/config.hpp"
#include "persistence/environment.hpp"
#include "persistence/store_tables.hpp"
#include "tests/support/lmdb_fixture.hpp"
#include "tests/support/temp_dir.hpp"
#include "thread_safe_coordinator.hpp"

namespace svc::test {

/// A reply read by `ask`: the value, or the error the actor answered with.
template <class T>
struct reply {
  std::optional<T> value;
  caf::error error;
  bool answered = false; ///< false: nothing arrived
};

struct actor_fixture {
  temp_dir dir;
  std::unique_ptr<persistence::environment> env = open_environment(dir.path);
  persistence::tables tables{*env};
  core::config cfg = make_config();
  std::shared_ptr<core::offset_clock> clock = std::make_shared<core::offset_clock>();

  /// Event payloads' URLs; none: no job mints an event.
  std::shared_ptr<const actors::public_urls> urls;

  caf::actor_system_config caf_cfg;
  caf::actor_system sys{init(caf_cfg)};
  thread_safe_coordinator& sched = dynamic_cast<thread_safe_coordinator&>(sys.scheduler());
  // Declared after `sys`: destroyed first (a live scoped actor blocks shutdown).
  caf::scoped_actor self{sys};
  actors::store_actor store;
  std::vector<caf::actor> tracked;

  /// The store's map holds `map_size` bytes: a small one fills up.
  explicit actor_fixture(uint64_t map_size = core::default_map_size) : env(open_environment(dir.path, map_size)) {
    store = sys.spawn(actors::store, env.get(), true);
    sched.run();
  }

  // Other threads must be done sending by now (a derived fixture stops its pool first).
  ~actor_fixture() {
    run_pending();
    for (auto& a : tracked)
      caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
    run_pending();
    caf::anon_send_exit(store, caf::exit_reason::user_shutdown);
    run_pending();
  }

  static core::config make_config() {
    core::config c;
    c.key_grace = std::chrono::seconds{2};
    c.bucket_snapshot_interval = std::chrono::seconds{5};
    c.request_deadline = std::chrono::seconds{10};
    return c;
  }

  static caf::actor_system_config& init(caf::actor_system_config& c) {
    c.set("scheduler.policy", caf::atom("testing"));
    thread_safe_coordinator::install(c);
    c.set("logger.verbosity", caf::atom("quiet"));
    actors::add_domain_error_category(c);
    actors::add_message_types(c);
    return c;
  }

  /// The context actors are spawned with (no registry unless given).
  actors::context ctx(actors::registry_actor registry = {}) const {
    actors::context c;
    c.cfg = &cfg;
    c.clock = clock;
    c.tables = &tables;
    c.store = store;
    c.urls = urls;
    c.registry = std::move(registry);
    return c;
  }

  /// Stores team `id` ("Acme") with `available` credits through the store, as the team directory does.
  void store_team(const std::string& id, int64_t available) {
    persistence::write_batch batch;
    schema::team_record t;
    t.id = id;
    t.name = "Acme";
    tables.teams.put(batch, id, t);
    tables.balances.put(batch, id, schema::balance_record{id, available, 0, {}});
    auto ok = ask<bool>(store, actors::commit_atom::value, std::move(batch));
    BOOST_REQUIRE(ok.value && *ok.value);
  }

  /// Remembers `h` so the fixture stops it; returns it.
  template <class Handle>
  Handle track(Handle h) {
    tracked.push_back(caf::actor_cast<caf::actor>(h));
    return h;
  }

  /// Stops one actor now and runs until it is gone.
  template <class Handle>
  void stop(const Handle& h) {
    caf::anon_send_exit(h, caf::exit_reason::user_shutdown);
    run_pending();
  }

  /// Moves wall time and virtual time by `d` together; returns the timers fired.
  std::size_t advance(std::chrono::milliseconds d) {
    clock->advance(d);
    auto fired = sched.advance_time(d);
    run_pending();
    return fired;
  }

  /// Runs the actors until none has work, including actors that other
  /// threads woke meanwhile; returns the jobs run.
  std::size_t run_pending() {
    sched.take_incoming();
    auto n = sched.run();
    while (sched.take_incoming() > 0)
      n += sched.run();
    return n;
  }

  /// Waits, without running any actor, until `done` holds or `limit` (real
  /// time) passes; returns whether `done` holds. For what only another
  /// thread changes, such as a pool's worker taking the task it was given.
  bool holds_within(const std::function<bool()>& done, std::chrono::milliseconds limit = std::chrono::seconds{20}) {
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (!done()) {
      if (std::chrono::steady_clock::now() >= deadline)
        return false;
      std::this_thread::sleep_for(std::chrono::milliseconds{1});
    }
    return true;
  }

  /// Runs the actors, including what other threads sent them, until `done`
  /// holds or `limit` (real time) passes; returns whether `done` holds.
  /// Between runs it waits for a message from another thread, and looks at
  /// `done` again every few milliseconds, since other threads may make it
  /// true without sending anything (a worker going idle).
  bool run_until(const std::function<bool()>& done, std::chrono::milliseconds limit = std::chrono::seconds{20}) {
    using steady = std::chrono::steady_clock;
    auto deadline = steady::now() + limit;
    for (;;) {
      run_pending();
      if (done())
        return true;
      auto now = steady::now();
      if (now >= deadline)
        return false;
      sched.wait_incoming(std::min(deadline, now + std::chrono::milliseconds{2}));
    }
  }

  /// The state of a stateful actor (safe: the test thread runs every actor).
  template <class State, class Handle>
  State& state_of(const Handle& h) {
    return dynamic_cast<typename Handle::template stateful_base<State>&>(*caf::actor_cast<caf::abstract_actor*>(h))
      .state;
  }

  /// Sends `xs` from the scoped actor, runs the actors and reads the one reply.
  template <class T, class Handle, class... Ts>
  reply<T> ask(const Handle& h, Ts&&... xs) {
    self->send(h, std::forward<Ts>(xs)...);
    run_pending();
    return receive<T>();
  }

  /// Reads one reply that is already in the scoped actor's mailbox.
  template <class T>
  reply<T> receive() {
    reply<T> out;
    self->receive(
      [&](T& x) {
        out.value = std::move(x);
        out.answered = true;
      },
      [&](caf::error& err) {
        out.error = std::move(err);
        out.answered = true;
      },
      caf::after(std::chrono::seconds{0}) >> [] {});
    return out;
  }
};

} // namespace svc::test
