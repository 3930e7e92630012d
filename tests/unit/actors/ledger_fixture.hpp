#pragma once
// The ledger's test bed: the actor fixture plus a team with an opening
// balance, and the admissions and settlements the job directory and the job
// actor would send (each carrying the job's rows, as they do).

#include <optional>
#include <string>

#include "actor_fixture.hpp"
#include "actors/ledger.hpp"
#include "persistence/job_rows.hpp"
#include "tests/support/read_results.hpp"

namespace svc::test {

struct ledger_fixture : actor_fixture {
  static inline const std::string team = "team_1";

  /// Stores `team`'s record and opening balance, as the team directory does.
  void open_team(int64_t available, const std::string& id = team) { store_team(id, available); }

  /// Spawns `team`'s ledger as its directory does (it loads from LMDB).
  actors::ledger_actor spawn_ledger() {
    auto h = track(sys.spawn(actors::ledger, ctx(), team));
    sched.run();
    return h;
  }

  /// A queued image job of `team`.
  schema::job_record make_job(const std::string& id, int64_t credits) const {
    schema::job_record j;
    j.id = id;
    j.team_id = team;
    j.prompt = "a lighthouse at dusk";
    j.width = j.height = 256;
    j.credits = credits;
    j.api_version = "2025-01-01";
    j.created_at = clock->now();
    return j;
  }

  /// The record a create under `key` stores, its answer naming `body`.
  schema::idempotency_record make_idempotency(const std::string& key, const std::string& body) const {
    schema::idempotency_record r;
    r.team_id = team;
    r.route = "images";
    r.key = key;
    r.request_sha256 = std::string(64, 'a');
    r.status = 201;
    r.body = body;
    r.location = "/v1/images/" + body;
    r.created_at = clock->now();
    r.expires_at = r.created_at + cfg.idempotency_ttl;
    return r;
  }

  /// An actors::admission as the job directory builds it: the job's rows and, with
  /// `key`, the idempotency record.
  actors::admission admit_job(const std::string& job_id, int64_t credits, const std::string& key = {}) const {
    actors::admission a;
    a.job_id = job_id;
    a.credits = credits;
    persistence::put_job(tables, a.writes, make_job(job_id, credits));
    if (!key.empty()) {
      auto r = make_idempotency(key, job_id);
      persistence::put_idempotency(tables, a.writes, r);
      a.idempotency_key = idempotency_key_of(key);
    }
    return a;
  }

  /// The `idempotency` table key of `key` on the images route.
  static std::string idempotency_key_of(const std::string& key) {
    return persistence::idempotency_key(team, "images", key);
  }

  /// A actors::settlement as the job actor builds it: the terminal record (priced `credits`) goes with it.
  actors::settlement settle_job(const std::string& job_id, schema::hold_status to, int64_t outputs, core::time_point when,
                                int64_t credits = 0) const {
    actors::settlement s;
    s.job_id = job_id;
    s.to = to;
    s.outputs = outputs;
    s.at = when;
    auto j = make_job(job_id, credits);
    j.status = to == schema::hold_status::charged ? schema::job_status::succeeded : schema::job_status::failed;
    j.cost_status = to;
    j.completed_at = when;
    persistence::put_job(tables, s.writes, j);
    return s;
  }

  /// The ledger's balance as it answers `get`.
  schema::balance_record balance(const actors::ledger_actor& l) {
    auto r = ask<schema::balance_record>(l, caf::get_atom::value);
    BOOST_REQUIRE(r.value);
    return *r.value;
  }

  /// `team`'s balance in LMDB.
  schema::balance_record stored_balance() {
    auto b = svc::test::found(tables.balances.get(team));
    BOOST_REQUIRE(b);
    return *b;
  }

  /// A job's hold in LMDB, if open.
  std::optional<schema::hold_record> stored_hold(const std::string& job) const {
    return svc::test::found(tables.holds.get(actors::hold_key(team, job)));
  }

  /// `team`'s usage row of a `YYYY-MM-DD` day.
  std::optional<schema::usage_record> stored_usage(const std::string& date) const {
    return svc::test::found(tables.usage.get(actors::usage_key(team, date)));
  }

  /// Runs every actor but the store, so commits wait there.
  void run_all_but_store() {
    auto* held_back = as_job(store);
    sched.run_jobs_filtered([=](caf::resumable* job) { return job != held_back; });
  }

  /// Runs `actor` alone, until its mailbox is empty.
  template <class Handle>
  void run_only(const Handle& actor) {
    auto* only = as_job(actor);
    sched.run_jobs_filtered([=](caf::resumable* job) { return job == only; });
  }

  /// The scheduler's job of an actor.
  template <class Handle>
  static caf::resumable* as_job(const Handle& actor) {
    return dynamic_cast<caf::resumable*>(caf::actor_cast<caf::abstract_actor*>(actor));
  }

  /// The catalogue code of an error answer.
  static schema::error_code code_of(const caf::error& err) { return actors::to_api_error(err).code; }
};


/// Whether a balance has these amounts.
inline bool same(const schema::balance_record& a, int64_t available, int64_t held) {
  return a.available == available && a.held == held;
}

} // namespace svc::test
