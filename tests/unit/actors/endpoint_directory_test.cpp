#include "actors/endpoint_directory.hpp"

#include <boost/test/unit_test.hpp>

#include <set>
#include <string>

#include "core/metric_catalogue.hpp"
#include "webhook_fixture.hpp"
#include "tests/support/read_results.hpp"

// The endpoint directory on virtual time with a scripted receiver: creates
// (idempotent), team checks of the endpoint-addressed calls, fan-out of
// published events into delivery tasks, recovery of pending events at start,
// and the directory's view of endpoints changed by PATCH, delete and auto-disable.

namespace {

using namespace std::chrono_literals;
using namespace svc::actors;
using namespace svc::schema;
using svc::test::ok_answer;
using svc::test::server_error;

} // namespace

namespace svc::test {

struct endpoint_directory_fixture : webhook_fixture {
  /// Creates `e` through the directory; requires it created (not replayed).
  void create(const endpoint_directory_actor& dir, const schema::webhook_endpoint_record& e) {
    auto r = ask<endpoint_created>(dir, create_atom::value, endpoint_creation{e, std::nullopt});
    BOOST_REQUIRE(r.value);
    BOOST_REQUIRE(!r.value->replayed);
  }

  /// Commits an event with its `pending_events` row (as an emitter does) and publishes it.
  schema::event_record publish(const endpoint_directory_actor& dir, std::string_view type = schema::image_completed,
                               const std::string& team_id = team) {
    auto ev = make_event(type, team_id);
    store_event(ev, persistence::fan_out::pending);
    self->send(dir, publish_atom::value, ev);
    run_pending();
    return ev;
  }

  /// The URLs posted to, in order.
  std::vector<std::string> posted_urls(std::size_t from = 0) const {
    std::vector<std::string> out;
    for (auto i = from; i < transport.size(); ++i)
      out.push_back(transport.at(i).post.url);
    return out;
  }

  /// The record an `Idempotency-Key` create stores: its answer names `endpoint_id`.
  schema::idempotency_record make_idempotency(const std::string& key, const std::string& endpoint_id) const {
    schema::idempotency_record r;
    r.team_id = team;
    r.route = "webhook_endpoints";
    r.key = key;
    r.request_sha256 = std::string(64, 'b');
    r.status = 201;
    r.body = "{\"id\":\"" + endpoint_id + "\"}";
    r.location = "/v1/webhook_endpoints/" + endpoint_id;
    r.created_at = now();
    r.expires_at = r.created_at + cfg.idempotency_ttl;
    return r;
  }
};

} // namespace svc::test

BOOST_AUTO_TEST_SUITE(actors_endpoint_directory)

BOOST_FIXTURE_TEST_SUITE(endpoint_directory_suite, svc::test::endpoint_directory_fixture)

BOOST_AUTO_TEST_CASE(a_published_event_becomes_one_task_per_active_subscribed_endpoint) {
  auto dir = spawn_directory();
  auto a = make_endpoint({"image.completed"});
  auto b = make_endpoint({"image.completed", "image.failed"});
  auto unsubscribed = make_endpoint({"image.failed"});
  auto inactive = make_endpoint({"image.completed"});
  inactive.is_active = false;
  auto foreign = make_endpoint({"image.completed"}, other_team);
  for (auto* e : {&a, &b, &unsubscribed, &inactive, &foreign}) {
    auto r = ask<endpoint_created>(dir, create_atom::value, endpoint_creation{*e, std::nullopt});
    BOOST_REQUIRE(r.value);
    BOOST_TEST(!r.value->replayed);
    BOOST_TEST(r.value->endpoint.id == e->id);
    BOOST_TEST(r.value->endpoint.secret == e->secret);
    auto s = svc::test::found(tables.webhook_endpoints.get(e->id));
    BOOST_REQUIRE(s);
    BOOST_TEST(s->url == e->url);
    BOOST_TEST((svc::test::found(tables.endpoints_by_team.get(svc::persistence::owned_key(e->team_id, e->id))) == e->id));
  }
  BOOST_TEST(state_of<endpoint_directory_state>(dir).endpoints.size() == 5u);

  auto ev = publish(dir);
  BOOST_TEST(pending_event_ids().empty());
  for (auto* e : {&a, &b}) {
    auto tasks = tasks_of(e->id);
    BOOST_REQUIRE(tasks.size() == 1u);
    BOOST_TEST(tasks[0].event_id == ev.id);
    BOOST_TEST(tasks[0].attempt == 1);
    BOOST_TEST((tasks[0].due_at == now()));
  }
  for (auto* e : {&unsubscribed, &inactive, &foreign})
    BOOST_TEST(tasks_of(e->id).empty());
  auto urls = posted_urls();
  BOOST_TEST((std::multiset<std::string>(urls.begin(), urls.end()) == std::multiset<std::string>{a.url, b.url}));
  for (auto& c : transport.calls())
    BOOST_TEST(c.post.body == ev.body);
  answer(0, ok_answer());
  answer(1, ok_answer());
  BOOST_TEST(tasks_of(a.id).empty());
  BOOST_TEST(tasks_of(b.id).empty());

  // An event of another type reaches only its subscribers; one of a team with no endpoint, nobody.
  publish(dir, "image.failed");
  BOOST_TEST((std::multiset<std::string>{transport.at(2).post.url, transport.at(3).post.url}
              == std::multiset<std::string>{b.url, unsubscribed.url}));
  BOOST_TEST(transport.size() == 4u);
  publish(dir, "image.completed", "team_without_endpoints");
  BOOST_TEST(transport.size() == 4u);
  BOOST_TEST(pending_event_ids().empty());
}

BOOST_AUTO_TEST_CASE(an_endpoint_that_dies_is_respawned_with_its_pending_deliveries) {
  auto dir = spawn_directory();
  auto a = make_endpoint({"image.completed"});
  auto b = make_endpoint({"image.completed"});
  create(dir, a);
  create(dir, b);
  auto ev = publish(dir);
  BOOST_REQUIRE(transport.size() == 2u);
  auto victim = state_of<endpoint_directory_state>(dir).endpoints.at(a.id).handle;
  self->send(victim, svc::actors::fault_atom::value);
  run_pending();
  // A successor took its place, and attempts the task in flight again (at least once).
  auto successor = state_of<endpoint_directory_state>(dir).endpoints.at(a.id).handle;
  BOOST_REQUIRE(successor);
  BOOST_TEST((successor != victim));
  BOOST_REQUIRE(transport.size() == 3u);
  BOOST_TEST(transport.at(2).post.url == a.url);
  BOOST_TEST(transport.at(2).post.body == ev.body);
  answer(2, ok_answer());
  answer(1, ok_answer());
  BOOST_TEST(tasks_of(a.id).empty());
  BOOST_TEST(tasks_of(b.id).empty());
  // Both keep receiving.
  publish(dir);
  BOOST_TEST(transport.size() == 5u);
}

BOOST_AUTO_TEST_CASE(another_teams_endpoint_is_not_found) {
  auto dir = spawn_directory();
  auto e = make_endpoint();
  create(dir, e);
  std::string them = other_team;
  endpoint_patch off;
  off.is_active = false;
  auto patched = ask<webhook_endpoint_record>(dir, patch_atom::value, them, e.id, off);
  BOOST_TEST((code_of(patched.error) == error_code::resource_not_found));
  auto rotated = ask<webhook_endpoint_record>(dir, rotate_atom::value, them, e.id);
  BOOST_TEST((code_of(rotated.error) == error_code::resource_not_found));
  auto deleted = ask<bool>(dir, delete_atom::value, them, e.id);
  BOOST_TEST((code_of(deleted.error) == error_code::resource_not_found));
  auto fired = ask<test_fire>(dir, test_fire_atom::value, them, e.id, std::string{"image.completed"},
                                std::string{"2026-09-01"}, svc::schema::correlation{});
  BOOST_TEST((code_of(fired.error) == error_code::resource_not_found));
  auto replayed = ask<int64_t>(dir, replay_atom::value, them, e.id, now() - 1min);
  BOOST_TEST((code_of(replayed.error) == error_code::resource_not_found));
  // An unknown id of the right team is not found either.
  auto unknown = ask<webhook_endpoint_record>(dir, rotate_atom::value, std::string{team}, std::string{"we_nope"});
  BOOST_TEST((code_of(unknown.error) == error_code::resource_not_found));

  // Nothing changed, and the owner still reaches it.
  auto s = stored(e.id);
  BOOST_TEST(s.is_active);
  BOOST_TEST(s.secret == e.secret);
  BOOST_TEST(s.previous_secret.empty());
  BOOST_TEST(transport.size() == 0u);
  auto mine = ask<webhook_endpoint_record>(dir, patch_atom::value, std::string{team}, e.id, off);
  BOOST_REQUIRE(mine.value);
  BOOST_TEST(!mine.value->is_active);
}

BOOST_AUTO_TEST_CASE(a_create_with_a_used_key_replays_and_one_in_flight_is_in_use) {
  auto dir = spawn_directory();
  auto first = make_endpoint();
  auto idem = make_idempotency("k1", first.id);
  self->send(dir, create_atom::value, endpoint_creation{first, idem});
  run_all_but_store(); // the first create's commit waits at the store

  auto second = make_endpoint();
  self->send(dir, create_atom::value, endpoint_creation{second, make_idempotency("k1", second.id)});
  run_all_but_store();
  auto busy = receive<endpoint_created>();
  BOOST_REQUIRE(busy.answered);
  BOOST_TEST(!busy.value);
  BOOST_TEST((code_of(busy.error) == error_code::idempotency_key_in_use));

  run_pending();
  auto created = receive<endpoint_created>();
  BOOST_REQUIRE(created.value);
  BOOST_TEST(!created.value->replayed);
  BOOST_TEST(created.value->endpoint.id == first.id);
  BOOST_TEST(state_of<endpoint_directory_state>(dir).creating.empty());
  auto stored_key = svc::test::found(tables.idempotency.get(svc::persistence::idempotency_key(team, "webhook_endpoints", "k1")));
  BOOST_REQUIRE(stored_key);
  BOOST_TEST(stored_key->body == idem.body);

  // Once committed, the same key replays the stored answer and creates nothing.
  auto third = make_endpoint();
  auto replay = ask<endpoint_created>(dir, create_atom::value,
                                      endpoint_creation{third, make_idempotency("k1", third.id)});
  BOOST_REQUIRE(replay.value);
  BOOST_TEST(replay.value->replayed);
  BOOST_TEST(replay.value->earlier.key == "k1");
  BOOST_TEST(replay.value->earlier.body == idem.body);
  BOOST_TEST(replay.value->earlier.location == idem.location);
  BOOST_TEST(replay.value->earlier.status == 201);
  BOOST_TEST(replay.value->earlier.request_sha256 == idem.request_sha256);
  for (auto* e : {&second, &third}) {
    BOOST_TEST(!svc::test::found(tables.webhook_endpoints.get(e->id)));
    BOOST_TEST(!svc::test::found(tables.endpoints_by_team.get(svc::persistence::owned_key(team, e->id))));
  }
  BOOST_TEST(svc::test::found(tables.webhook_endpoints.get(first.id)).has_value());
  BOOST_TEST(state_of<endpoint_directory_state>(dir).endpoints.size() == 1u);
  // Another key creates.
  auto fourth = make_endpoint();
  auto other = ask<endpoint_created>(dir, create_atom::value,
                                     endpoint_creation{fourth, make_idempotency("k2", fourth.id)});
  BOOST_REQUIRE(other.value);
  BOOST_TEST(!other.value->replayed);
  BOOST_TEST(svc::test::found(tables.webhook_endpoints.get(fourth.id)).has_value());
}

BOOST_AUTO_TEST_CASE(events_left_pending_are_fanned_out_at_start) {
  // As a crash leaves them: endpoints, an event committed with its pending
  // row but never fanned out, and a pending row whose event is gone.
  auto a = make_endpoint({"image.completed"});
  auto b = make_endpoint({"image.completed"});
  auto inactive = make_endpoint({"image.completed"});
  inactive.is_active = false;
  auto unsubscribed = make_endpoint({"video.completed"});
  for (auto* e : {&a, &b, &inactive, &unsubscribed})
    store_endpoint(*e);
  auto ev = make_event();
  store_event(ev, svc::persistence::fan_out::pending);
  svc::persistence::write_batch batch;
  tables.pending_events.put(batch, "evt_gone", "evt_gone");
  commit(std::move(batch));
  BOOST_TEST(pending_event_ids().size() == 2u);

  auto dir = spawn_directory();
  BOOST_TEST(state_of<endpoint_directory_state>(dir).endpoints.size() == 4u);
  BOOST_TEST(pending_event_ids().empty());
  for (auto* e : {&a, &b}) {
    auto tasks = tasks_of(e->id);
    BOOST_REQUIRE(tasks.size() == 1u);
    BOOST_TEST(tasks[0].event_id == ev.id);
  }
  BOOST_TEST(tasks_of(inactive.id).empty());
  BOOST_TEST(tasks_of(unsubscribed.id).empty());
  auto urls = posted_urls();
  BOOST_TEST((std::multiset<std::string>(urls.begin(), urls.end()) == std::multiset<std::string>{a.url, b.url}));
  answer(0, ok_answer());
  answer(1, ok_answer());
  BOOST_TEST(deliveries_of(a.id).size() == 1u);
  BOOST_TEST(deliveries_of(b.id).size() == 1u);
}

// What a crash left (pending tasks of two endpoints, an event never fanned
// out) is back before `ready` says done; asked at once, it says not yet.
BOOST_AUTO_TEST_CASE(ready_once_every_endpoint_loaded_its_tasks_and_pending_events_are_fanned_out) {
  auto a = make_endpoint({"image.completed"});
  auto b = make_endpoint({"image.completed"});
  store_endpoint(a);
  store_endpoint(b);
  auto later = now() + 1h;
  for (int i = 0; i < 3; ++i) {
    auto ev = make_event();
    store_event(ev);
    store_task(make_task(a, ev, later));
    store_task(make_task(b, ev, later));
  }
  store_event(make_event(), svc::persistence::fan_out::pending);

  auto dir = track(sys.spawn(svc::actors::endpoint_directory, ctx(), services()));
  self->send(dir, svc::actors::ready_atom::value);
  run_pending();
  auto early = receive<svc::actors::recovery_status>();
  BOOST_REQUIRE(early.value);
  BOOST_TEST(!early.value->done);
  auto ready = ask<svc::actors::recovery_status>(dir, svc::actors::ready_atom::value);
  BOOST_REQUIRE(ready.value);
  BOOST_TEST(ready.value->done);
  BOOST_TEST(ready.value->recovered == 7, "six tasks loaded, one event fanned out");
  BOOST_TEST(tasks_of(a.id).size() == 4u);
  BOOST_TEST(pending_event_ids().empty());
}

BOOST_AUTO_TEST_CASE(a_patch_that_deactivates_or_unsubscribes_is_seen_by_the_next_publish) {
  auto dir = spawn_directory();
  auto a = make_endpoint({"image.completed"});
  auto b = make_endpoint({"image.completed"});
  create(dir, a);
  create(dir, b);
  endpoint_patch off;
  off.is_active = false;
  auto patched = ask<webhook_endpoint_record>(dir, patch_atom::value, std::string{team}, b.id, off);
  BOOST_REQUIRE(patched.value);
  BOOST_TEST(!patched.value->is_active);
  BOOST_TEST(!stored(b.id).is_active);
  BOOST_TEST(!state_of<endpoint_directory_state>(dir).endpoints.at(b.id).is_active);

  publish(dir);
  BOOST_TEST(posted_urls() == std::vector<std::string>{a.url});
  BOOST_TEST(tasks_of(b.id).empty());
  answer(0, ok_answer());

  // Re-enabled it is reached again; unsubscribed it is not.
  endpoint_patch on;
  on.is_active = true;
  BOOST_REQUIRE(ask<webhook_endpoint_record>(dir, patch_atom::value, std::string{team}, b.id, on).value);
  endpoint_patch narrower;
  narrower.events = std::vector<std::string>{"image.failed"};
  BOOST_REQUIRE(ask<webhook_endpoint_record>(dir, patch_atom::value, std::string{team}, a.id, narrower).value);
  publish(dir);
  BOOST_TEST(posted_urls(1) == std::vector<std::string>{b.url});
  answer(1, ok_answer());
}

// `svc_webhook_disabled_endpoints` is the directory's count: what it loaded,
// then every switch and delete (the gauge is process-wide; one directory here).
BOOST_AUTO_TEST_CASE(disabled_endpoints_are_counted_at_load_and_kept_current) {
  auto& disabled = svc::core::metrics::svc().webhook_disabled_endpoints.get();
  auto off_at_start = make_endpoint();
  off_at_start.is_active = false;
  store_endpoint(off_at_start);
  auto on_at_start = make_endpoint();
  store_endpoint(on_at_start);
  auto dir = spawn_directory();
  BOOST_TEST(disabled.value() == 1);

  endpoint_patch off;
  off.is_active = false;
  BOOST_REQUIRE(ask<webhook_endpoint_record>(dir, patch_atom::value, std::string{team}, on_at_start.id, off).value);
  run_pending();
  BOOST_TEST(disabled.value() == 2);
  BOOST_REQUIRE(ask<webhook_endpoint_record>(dir, patch_atom::value, std::string{team}, on_at_start.id, off).value);
  run_pending();
  BOOST_TEST(disabled.value() == 2, "disabling a disabled endpoint counts it once");
  endpoint_patch on;
  on.is_active = true;
  BOOST_REQUIRE(ask<webhook_endpoint_record>(dir, patch_atom::value, std::string{team}, off_at_start.id, on).value);
  run_pending();
  BOOST_TEST(disabled.value() == 1);
  BOOST_REQUIRE(ask<bool>(dir, delete_atom::value, std::string{team}, on_at_start.id).value);
  run_pending();
  BOOST_TEST(disabled.value() == 0, "a deleted endpoint is no disabled one");
}

BOOST_AUTO_TEST_CASE(a_deleted_endpoint_is_forgotten) {
  auto dir = spawn_directory();
  auto a = make_endpoint();
  create(dir, a);
  auto deleted = ask<bool>(dir, delete_atom::value, std::string{team}, a.id);
  BOOST_REQUIRE(deleted.value);
  BOOST_TEST(*deleted.value);
  run_pending();
  BOOST_TEST(!svc::test::found(tables.webhook_endpoints.get(a.id)));
  BOOST_TEST(state_of<endpoint_directory_state>(dir).endpoints.empty());
  publish(dir);
  BOOST_TEST(transport.size() == 0u);
  auto again = ask<bool>(dir, delete_atom::value, std::string{team}, a.id);
  BOOST_TEST((code_of(again.error) == error_code::resource_not_found));
}

BOOST_AUTO_TEST_CASE(an_auto_disabled_endpoint_is_announced_to_the_teams_other_endpoints) {
  cfg.disable_failures = 1;
  auto dir = spawn_directory();
  auto failing = make_endpoint({"image.completed", "webhook.endpoint_disabled"});
  auto watcher = make_endpoint({"image.completed", "webhook.endpoint_disabled"});
  auto foreign = make_endpoint({"webhook.endpoint_disabled"}, other_team);
  create(dir, failing);
  create(dir, watcher);
  create(dir, foreign);
  publish(dir);
  BOOST_REQUIRE(transport.size() == 2u);
  auto failing_post = transport.at(0).post.url == failing.url ? 0u : 1u;
  answer(1 - failing_post, ok_answer());
  answer(failing_post, server_error());

  BOOST_TEST(!stored(failing.id).is_active);
  BOOST_TEST(!state_of<endpoint_directory_state>(dir).endpoints.at(failing.id).is_active);
  BOOST_TEST(pending_event_ids().empty()); // published and fanned out
  BOOST_REQUIRE(transport.size() == 3u);   // to the watcher only
  auto& c = transport.at(2);
  BOOST_TEST(c.post.url == watcher.url);
  BOOST_TEST(c.header("Svc-Event-Type") == "webhook.endpoint_disabled");
  auto data = data_of(c.post.body);
  BOOST_TEST(data.at("id").as_string() == failing.id);
  BOOST_TEST(data.at("secret").is_null());
  answer(2, ok_answer());
  BOOST_TEST(tasks_of(failing.id).empty());
  BOOST_TEST(tasks_of(foreign.id).empty());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
