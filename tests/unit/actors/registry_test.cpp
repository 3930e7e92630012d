#include "actors/registry.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "actor_fixture.hpp"
#include "actors/bucket.hpp"
#include "actors/keyring.hpp"

BOOST_AUTO_TEST_SUITE(actors_registry)

namespace {

using namespace svc::actors;

struct registry_fixture : svc::test::actor_fixture {
  svc::actors::registry_actor reg = track(sys.spawn(svc::actors::registry, std::chrono::milliseconds{1000}));

  svc::test::reply<std::vector<actor_summary>> list_reply(actor_filter f) {
    return ask<std::vector<actor_summary>>(reg, list_atom::value, f);
  }

  // A listing that matches at least one actor, sorted by kind and id.
  std::vector<actor_summary> list(actor_filter f = {}) {
    auto r = list_reply(f);
    BOOST_REQUIRE(r.answered);
    BOOST_REQUIRE(r.value);
    auto rows = *r.value;
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.kind + a.id < b.kind + b.id; });
    return rows;
  }

  svc::actors::bucket_actor spawn_bucket(const std::string& team) {
    auto h = track(sys.spawn(svc::actors::bucket, ctx(reg), team, svc::actors::bucket_overrides{},
                             std::optional<svc::schema::bucket_snapshot>{}));
    sched.run();
    return h;
  }
};

std::vector<std::string> ids(const std::vector<actor_summary>& rows) {
  std::vector<std::string> out;
  for (auto& r : rows)
    out.push_back(r.kind + ":" + r.id);
  return out;
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(registry_suite, registry_fixture)

// An empty listing must still be answered (the promise is only taken when someone is asked).
BOOST_AUTO_TEST_CASE(empty_listings_are_answered) {
  spawn_bucket("team_1");
  auto empty_registry = ask<std::vector<actor_summary>>(track(sys.spawn(svc::actors::registry, std::chrono::milliseconds{1000})), list_atom::value,
                                                        actor_filter{});
  BOOST_TEST((empty_registry.value && empty_registry.value->empty()));
  auto no_match = list_reply({"nothing", "", 100});
  BOOST_TEST((no_match.value && no_match.value->empty()));
  auto zero_limit = list_reply({"", "", 0});
  BOOST_TEST((zero_limit.value && zero_limit.value->empty()));
}

BOOST_AUTO_TEST_CASE(registered_actors_are_listed_with_their_state) {
  auto b1 = spawn_bucket("team_1");
  auto b2 = spawn_bucket("team_2");
  auto keys = track(sys.spawn(svc::actors::keyring, ctx(reg)));
  self->send(reg, register_atom::value, std::string{"store"}, std::string{"store"}, std::string{}, store.address());
  sched.run();
  BOOST_TEST(state_of<svc::actors::registry_state>(reg).live.size() == 4u);

  auto rows = list();
  BOOST_TEST(ids(rows) == (std::vector<std::string>{"bucket:team_1", "bucket:team_2", "keyring:keyring", "store:store"}));
  BOOST_REQUIRE(rows.size() == 4u);
  BOOST_TEST(rows[0].team == "team_1");
  BOOST_TEST(rows[1].team == "team_2");
  BOOST_TEST(rows[2].team == "");
  BOOST_TEST(rows[0].state.find("webhook_endpoints_post=10/10") != std::string::npos);
  BOOST_TEST(rows[2].state == "issued=0 grace_timers=0");
  BOOST_TEST(rows[3].state == "commits=0 batches=0 pending=0");
  for (auto& r : rows)
    BOOST_TEST(r.age_ms >= 0);

  // The state is asked for at listing time, not remembered.
  auto d = ask<svc::actors::rate_decision>(b1, svc::actors::take_atom::value,
                                           svc::schema::bucket_class::webhook_endpoints_post);
  BOOST_REQUIRE(d.value);
  rows = list({"bucket", "team_1", 100});
  BOOST_REQUIRE(rows.size() == 1u);
  BOOST_TEST(rows[0].state.find("webhook_endpoints_post=9/10") != std::string::npos);
  (void)b2;
  (void)keys;
}

BOOST_AUTO_TEST_CASE(filters_by_kind_team_and_limit) {
  spawn_bucket("team_1");
  spawn_bucket("team_2");
  spawn_bucket("team_3");
  track(sys.spawn(svc::actors::keyring, ctx(reg)));
  sched.run();
  BOOST_TEST(list({"bucket", "", 100}).size() == 3u);
  BOOST_TEST(ids(list({"", "team_2", 100})) == (std::vector<std::string>{"bucket:team_2"}));
  BOOST_TEST(ids(list({"keyring", "", 100})) == (std::vector<std::string>{"keyring:keyring"}));
  BOOST_TEST(list({"bucket", "", 2}).size() == 2u);
  BOOST_TEST(list({"", "", 1}).size() == 1u);
}

BOOST_AUTO_TEST_CASE(exited_actors_disappear) {
  auto b1 = spawn_bucket("team_1");
  spawn_bucket("team_2");
  BOOST_TEST(list().size() == 2u);

  stop(b1);
  BOOST_TEST(state_of<svc::actors::registry_state>(reg).live.size() == 1u);
  BOOST_TEST(ids(list()) == (std::vector<std::string>{"bucket:team_2"}));

  // An actor that ends by itself (a normal quit) disappears as well.
  auto quitter = track(sys.spawn(
    [](caf::event_based_actor* s, int quit_on) -> caf::behavior {
      return {[=](int x) {
        if (x == quit_on)
          s->quit();
      }};
    },
    1));
  self->send(reg, register_atom::value, std::string{"temp"}, std::string{"t1"}, std::string{"team_x"},
             quitter.address());
  sched.run();
  BOOST_TEST(state_of<svc::actors::registry_state>(reg).live.size() == 2u);
  self->send(quitter, 1);
  sched.run();
  BOOST_TEST(state_of<svc::actors::registry_state>(reg).live.size() == 1u);
  BOOST_TEST(ids(list()) == (std::vector<std::string>{"bucket:team_2"}));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
