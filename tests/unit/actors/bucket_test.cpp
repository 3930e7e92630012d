#include "actors/bucket.hpp"

#include <boost/test/unit_test.hpp>

#include <optional>
#include <string>

#include "actor_fixture.hpp"
#include "actors/bucket_directory.hpp"
#include "tests/support/read_results.hpp"

BOOST_AUTO_TEST_SUITE(actors_bucket)

namespace {

using namespace std::chrono_literals;
using namespace svc::actors;
using namespace svc::schema;

// webhook_endpoints_post: capacity 10, 10 per minute (one token per 6 s), so
// the few real milliseconds a test takes refill almost nothing.
constexpr auto cls = bucket_class::webhook_endpoints_post;
constexpr const char* cls_name = "webhook_endpoints_post";

struct bucket_fixture : svc::test::actor_fixture {
  bucket_actor spawn_bucket(const std::string& team, bucket_overrides overrides = {},
                            std::optional<bucket_snapshot> snap = std::nullopt) {
    auto h = track(sys.spawn(svc::actors::bucket, ctx(), team, std::move(overrides), std::move(snap)));
    sched.run();
    return h;
  }

  rate_decision take(const bucket_actor& b, bucket_class c = cls) {
    auto r = ask<rate_decision>(b, take_atom::value, c);
    BOOST_REQUIRE(r.value);
    return *r.value;
  }

  double stored_tokens(const std::string& team, const std::string& name = cls_name) {
    auto snap = svc::test::found(tables.buckets.get(team));
    BOOST_REQUIRE(snap);
    BOOST_REQUIRE(snap->levels.count(name) == 1u);
    return snap->levels.at(name).tokens;
  }
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(bucket_suite, bucket_fixture)

BOOST_AUTO_TEST_CASE(takes_tokens_of_a_team_class) {
  auto b = spawn_bucket("team_1");
  for (int64_t i = 0; i < 10; ++i) {
    auto d = take(b);
    BOOST_TEST_CONTEXT("take " << i) {
      BOOST_TEST(d.allowed);
      BOOST_TEST(d.limit == 10);
      BOOST_TEST(d.remaining == 9 - i);
      BOOST_TEST(d.bucket == cls_name);
    }
  }
  auto refused = take(b);
  BOOST_TEST(!refused.allowed);
  BOOST_TEST(refused.retry_after >= 1);
  BOOST_TEST(refused.retry_after <= 6);
  // Classes are separate buckets.
  auto other = take(b, bucket_class::images_post);
  BOOST_TEST(other.allowed);
  BOOST_TEST(other.limit == 120);
  BOOST_TEST(other.remaining == 119);
}

BOOST_AUTO_TEST_CASE(snapshot_stores_levels_and_a_restart_keeps_them) {
  auto b = spawn_bucket("team_1");
  for (int i = 0; i < 4; ++i)
    BOOST_TEST(take(b).allowed);
  BOOST_TEST(!svc::test::found(tables.buckets.get("team_1")));

  auto ok = ask<bool>(b, snapshot_atom::value);
  BOOST_TEST((ok.value == std::optional<bool>{true}));
  auto snap = svc::test::found(tables.buckets.get("team_1"));
  BOOST_REQUIRE(snap);
  BOOST_TEST(snap->team_id == "team_1");
  BOOST_TEST(snap->levels.size() == svc::schema::team_bucket_count);
  BOOST_TEST(snap->levels.count("anonymous") == 0u);
  BOOST_TEST(stored_tokens("team_1") >= 6.0);
  BOOST_TEST(stored_tokens("team_1") < 6.1);
  BOOST_TEST(stored_tokens("team_1", "images_post") == 120.0);

  // A new actor (a restart) with that snapshot does not start full.
  stop(b);
  auto again = spawn_bucket("team_1", {}, svc::test::found(tables.buckets.get("team_1")));
  auto d = take(again);
  BOOST_TEST(d.allowed);
  BOOST_TEST(d.remaining == 5);
  // Without the snapshot the same team would have started full.
  auto fresh = spawn_bucket("team_2");
  BOOST_TEST(take(fresh).remaining == 9);
}

BOOST_AUTO_TEST_CASE(restored_level_refills_from_its_reading_time) {
  bucket_snapshot snap;
  snap.team_id = "team_1";
  snap.levels[cls_name] = {0.0, svc::core::to_unix_ms(clock->now()) - 12'000}; // 12 s ago: 2 tokens back
  auto b = spawn_bucket("team_1", {}, snap);
  BOOST_TEST(take(b).allowed);
  BOOST_TEST(take(b).allowed);
  BOOST_TEST(!take(b).allowed);
}

BOOST_AUTO_TEST_CASE(snapshot_from_the_future_is_ignored) {
  bucket_snapshot snap;
  snap.team_id = "team_1";
  snap.levels[cls_name] = {0.0, svc::core::to_unix_ms(clock->now()) + 3'600'000};
  auto b = spawn_bucket("team_1", {}, snap);
  BOOST_TEST(take(b).remaining == 9);
}

BOOST_AUTO_TEST_CASE(snapshot_without_changes_writes_nothing) {
  auto b = spawn_bucket("team_1");
  auto ok = ask<bool>(b, snapshot_atom::value);
  BOOST_TEST((ok.value == std::optional<bool>{true}));
  BOOST_TEST(!svc::test::found(tables.buckets.get("team_1")));
  BOOST_TEST(state_of<svc::actors::store_state>(store).commits == 0u);
}

BOOST_AUTO_TEST_CASE(periodic_snapshot_after_the_interval) {
  auto b = spawn_bucket("team_1");
  take(b);
  take(b);
  BOOST_TEST(advance(4s) == 0u);
  BOOST_TEST(!svc::test::found(tables.buckets.get("team_1")));
  BOOST_TEST(advance(1s) == 1u);
  BOOST_TEST(svc::test::found(tables.buckets.get("team_1")).has_value());
  // The level as of its last reading (the second take), with that reading's time.
  BOOST_TEST(stored_tokens("team_1") >= 8.0);
  BOOST_TEST(stored_tokens("team_1") < 8.1);
  auto at = svc::test::found(tables.buckets.get("team_1"))->levels.at(cls_name).at_ms;
  BOOST_TEST(at <= svc::core::to_unix_ms(clock->now()) - 5'000);
  BOOST_TEST(!state_of<svc::actors::bucket_state>(b).dirty);
  BOOST_TEST(!state_of<svc::actors::bucket_state>(b).timer_armed);
  // Nothing changed since: no timer, no further write.
  BOOST_TEST(advance(10s) == 0u);
  BOOST_TEST(state_of<svc::actors::store_state>(store).commits == 1u);
}

BOOST_AUTO_TEST_CASE(overrides_change_the_reported_limit) {
  auto b = spawn_bucket("team_1", bucket_overrides{{cls_name, {3, 3}}});
  auto d = take(b);
  BOOST_TEST(d.limit == 3);
  BOOST_TEST(d.remaining == 2);

  self->send(b, limits_atom::value, bucket_overrides{{cls_name, {50, 50}}});
  sched.run();
  d = take(b);
  BOOST_TEST(d.limit == 50);
  BOOST_TEST(d.remaining == 1); // the level is kept, not refilled to the new capacity

  self->send(b, limits_atom::value, bucket_overrides{{cls_name, {1, 1}}, {"reads", {5, 5}}});
  sched.run();
  d = take(b); // the level (about 1) is capped at the new capacity 1
  BOOST_TEST(d.limit == 1);
  BOOST_TEST(d.allowed);
  BOOST_TEST(d.remaining == 0);
  BOOST_TEST(!take(b).allowed);
  BOOST_TEST(take(b, bucket_class::reads).limit == 5);

  // Dropping the overrides restores the defaults.
  self->send(b, limits_atom::value, bucket_overrides{});
  sched.run();
  BOOST_TEST(take(b).limit == 10);
  BOOST_TEST(take(b, bucket_class::reads).limit == 1200);
}

BOOST_AUTO_TEST_CASE(effective_limits_prefer_overrides) {
  auto l = svc::actors::effective_limits(cls, {{cls_name, {7, 8}}});
  BOOST_TEST(l.capacity == 7.0);
  BOOST_TEST(l.per_minute == 8.0);
  auto d = svc::actors::effective_limits(bucket_class::reads, {{cls_name, {7, 8}}});
  BOOST_TEST(d.capacity == 1200.0);
}

BOOST_AUTO_TEST_CASE(directory_restores_snapshot_and_overrides_from_tables) {
  // A team with an override and a stored level, as a previous run left them.
  svc::schema::team_record team;
  team.id = "team_9";
  team.name = "Nine";
  team.owner_email = "a@b.c";
  team.default_api_version = "2025-01-01";
  team.rate_limit_overrides[cls_name] = {4, 4};
  bucket_snapshot snap;
  snap.team_id = "team_9";
  snap.levels[cls_name] = {1.0, svc::core::to_unix_ms(clock->now())};
  svc::persistence::write_batch batch;
  tables.teams.put(batch, team.id, team);
  tables.buckets.put(batch, snap.team_id, snap);
  BOOST_REQUIRE(env->commit(batch).ok());

  auto dir = track(sys.spawn(svc::actors::bucket_directory, ctx()));
  sched.run();
  auto resolved = ask<bucket_actor>(dir, svc::actors::resolve_atom::value, std::string{"team_9"});
  BOOST_REQUIRE(resolved.value);
  auto d = take(*resolved.value);
  BOOST_TEST(d.limit == 4);
  BOOST_TEST(d.allowed);
  BOOST_TEST(d.remaining == 0);
  // The same team resolves to the same actor.
  auto again = ask<bucket_actor>(dir, svc::actors::resolve_atom::value, std::string{"team_9"});
  BOOST_REQUIRE(again.value);
  BOOST_TEST((*again.value == *resolved.value));
  // Overrides sent through the directory reach the live bucket.
  self->send(dir, limits_atom::value, std::string{"team_9"}, bucket_overrides{{cls_name, {6, 6}}});
  sched.run();
  BOOST_TEST(take(*resolved.value).limit == 6);
  // A shutdown snapshot covers every live bucket.
  auto ok = ask<bool>(dir, snapshot_atom::value);
  BOOST_TEST((ok.value == std::optional<bool>{true}));
  BOOST_TEST(stored_tokens("team_9") < 0.1);
}

BOOST_AUTO_TEST_CASE(a_charge_through_the_directory_may_leave_a_debt_that_the_snapshot_keeps) {
  auto dir = track(sys.spawn(svc::actors::bucket_directory, ctx()));
  sched.run();
  using svc::actors::charge_atom;
  constexpr auto replays = bucket_class::webhook_replay_events; // 1000, 100 a minute
  auto big = ask<rate_decision>(dir, charge_atom::value, std::string{"team_c"}, replays, int64_t{1500});
  BOOST_REQUIRE(big.value);
  BOOST_TEST(big.value->allowed);
  BOOST_TEST(big.value->bucket == "webhook_replay_events");
  auto next = ask<rate_decision>(dir, charge_atom::value, std::string{"team_c"}, replays, int64_t{1});
  BOOST_REQUIRE(next.value);
  BOOST_TEST(!next.value->allowed);
  BOOST_TEST(next.value->retry_after >= 300, "500 tokens of debt at 100 a minute");
  auto ok = ask<bool>(dir, snapshot_atom::value);
  BOOST_TEST((ok.value == std::optional<bool>{true}));
  BOOST_TEST(stored_tokens("team_c", "webhook_replay_events") < -499.0);
  // Other classes of the team are untouched.
  auto resolved = ask<bucket_actor>(dir, svc::actors::resolve_atom::value, std::string{"team_c"});
  BOOST_REQUIRE(resolved.value);
  BOOST_TEST(take(*resolved.value).allowed);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
