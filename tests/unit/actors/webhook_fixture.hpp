#pragma once
// The test bed of the endpoint actor and the endpoint directory: the actor
// fixture plus a scripted transport, two teams, short webhook durations and a
// wall clock that stands still between `advance` calls. The fixture's own
// clock follows the system clock, so a deadline stored as "now + 5 s" would be
// re-armed a few real microseconds short (and rounded down to 4999 ms); with
// a clock that moves only with virtual time every timer lands exactly.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/json.hpp>

#include "actor_fixture.hpp"
#include "actors/endpoint.hpp"
#include "actors/endpoint_directory.hpp"
#include "core/ids.hpp"
#include "persistence/job_rows.hpp"
#include "persistence/webhook_rows.hpp"
#include "schema/event_types.hpp"
#include "schema/webhook_signature.hpp"
#include "schema/webhook_views.hpp"
#include "scripted_transport.hpp"
#include "tests/support/read_results.hpp"

namespace svc::test {

/// Wall time that moves only when told (starts at the current whole millisecond).
class manual_clock final : public core::clock {
public:
  core::time_point now() const override { return base_ + std::chrono::milliseconds{offset_ms_.load()}; }
  void advance(std::chrono::milliseconds d) { offset_ms_ += d.count(); }

private:
  core::time_point base_ = core::from_unix_ms(core::to_unix_ms(std::chrono::system_clock::now()));
  std::atomic<int64_t> offset_ms_{0};
};

struct webhook_fixture : actor_fixture {
  static inline const std::string team = "team_1";
  static inline const std::string other_team = "team_2";
  static inline const std::string version = "2026-09-01"; ///< the teams' default API version

  std::shared_ptr<manual_clock> wall = std::make_shared<manual_clock>();
  scripted_transport transport; // declared after `sys`: its callbacks' handles go first
  int next_url = 0;

  webhook_fixture() {
    cfg.retry_schedule = {std::chrono::seconds{5}, std::chrono::seconds{30}, std::chrono::minutes{2},
                          std::chrono::minutes{10}};
    cfg.disable_failures = 3;
    cfg.disable_window = std::chrono::hours{1};
    cfg.secret_grace = std::chrono::hours{1};
    cfg.event_retention = std::chrono::hours{2};
    open_team(team);
    open_team(other_team);
  }

  // The actors stop while the transport they post through still exists.
  ~webhook_fixture() {
    run_pending();
    for (auto& a : tracked)
      caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
    run_pending();
    tracked.clear();
  }

  /// The context with the standing clock (hides actor_fixture::ctx).
  actors::context ctx() const {
    auto c = actor_fixture::ctx();
    c.clock = wall;
    return c;
  }

  /// Moves the standing clock, the fixture's clock and virtual time by `d`
  /// together and runs what came due (hides actor_fixture::advance).
  std::size_t advance(std::chrono::milliseconds d) {
    wall->advance(d);
    return actor_fixture::advance(d);
  }

  /// Wall time now.
  core::time_point now() const { return wall->now(); }

  /// Milliseconds from now until `t` (negative when past).
  std::chrono::milliseconds time_until(core::time_point t) const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(t - now());
  }

  /// What endpoints are spawned with here: the transport, no mailer, no directory.
  actors::endpoint_services services() { return {&transport, {}, {}, {}}; }

  /// Commits `batch` through the store; requires success.
  void commit(persistence::write_batch batch) {
    auto ok = ask<bool>(store, actors::commit_atom::value, std::move(batch));
    BOOST_REQUIRE(ok.value && *ok.value);
  }

  /// Stores a team record, as the team directory does.
  void open_team(const std::string& id) {
    persistence::write_batch batch;
    schema::team_record t;
    t.id = id;
    t.name = "Acme";
    t.owner_email = "owner@" + id + ".example";
    t.default_api_version = version;
    t.created_at = now();
    tables.teams.put(batch, id, t);
    commit(std::move(batch));
  }

  /// A new active endpoint record of `team_id` subscribed to `events`.
  schema::webhook_endpoint_record make_endpoint(std::vector<std::string> events = {"image.completed"},
                                                const std::string& team_id = team) {
    schema::webhook_endpoint_record e;
    e.id = core::make_id("we");
    e.team_id = team_id;
    e.url = "https://hooks.example.com/receiver-" + std::to_string(next_url++);
    e.events = std::move(events);
    e.secret = schema::make_webhook_secret();
    e.created_at = e.updated_at = now();
    return e;
  }

  /// Commits an endpoint's record and listing row.
  void store_endpoint(const schema::webhook_endpoint_record& e) {
    persistence::write_batch batch;
    persistence::put_endpoint(tables, batch, e);
    commit(std::move(batch));
  }

  /// A minted event of `team_id` as a job would emit it (data like an image record).
  schema::event_record make_event(std::string_view type = schema::image_completed, const std::string& team_id = team) {
    boost::json::object data{{"id", core::make_id("img")},
                             {"object", "image"},
                             {"status", "succeeded"},
                             {"output_urls", boost::json::array{"https://svc.example/o/1.png"}}};
    return schema::mint_event(team_id, type, version, false, now(), std::move(data));
  }

  /// Commits an event's rows (with its `pending_events` row when `pending`).
  void store_event(const schema::event_record& e, persistence::fan_out state = persistence::fan_out::done) {
    persistence::write_batch batch;
    persistence::put_event(tables, batch, e, cfg.event_retention, state);
    commit(std::move(batch));
  }

  /// A first-attempt task of an event for an endpoint, due at `due` (default now).
  schema::delivery_task make_task(const schema::webhook_endpoint_record& e, const schema::event_record& ev,
                                  std::optional<core::time_point> due = std::nullopt) const {
    return schema::delivery_task{core::make_ulid(), e.id, ev.id, 1, due.value_or(now())};
  }

  /// Commits a delivery task.
  void store_task(const schema::delivery_task& t) {
    persistence::write_batch batch;
    persistence::put_task(tables, batch, t);
    commit(std::move(batch));
  }

  /// Spawns an endpoint actor directly (as the directory does) and runs its start.
  actors::endpoint_actor spawn_endpoint(const schema::webhook_endpoint_record& e) {
    auto h = track(sys.spawn(actors::endpoint, ctx(), services(), e));
    run_pending();
    return h;
  }

  /// Spawns the endpoint directory (it recovers from LMDB) and runs its start.
  actors::endpoint_directory_actor spawn_directory() {
    auto h = track(sys.spawn(actors::endpoint_directory, ctx(), services()));
    run_pending();
    return h;
  }

  /// A stored endpoint with its actor, and one stored event with its first task (not yet handed over).
  struct pending_delivery {
    schema::webhook_endpoint_record endpoint;
    actors::endpoint_actor actor;
    schema::event_record event;
    schema::delivery_task task;
  };
  pending_delivery store_pending_delivery() {
    pending_delivery p;
    p.endpoint = make_endpoint();
    store_endpoint(p.endpoint);
    p.actor = spawn_endpoint(p.endpoint);
    p.event = make_event();
    store_event(p.event);
    p.task = make_task(p.endpoint, p.event);
    store_task(p.task);
    return p;
  }

  /// Hands a committed task to an endpoint and runs the actors.
  void deliver(const actors::endpoint_actor& h, const schema::delivery_task& t) {
    self->send(h, actors::deliver_atom::value, t);
    run_pending();
  }

  /// Stores a new event and its first task for `e` and hands the task to `h`.
  std::pair<schema::event_record, schema::delivery_task> deliver_new_event(const actors::endpoint_actor& h,
                                                                           const schema::webhook_endpoint_record& e) {
    auto ev = make_event();
    store_event(ev);
    auto task = make_task(e, ev);
    store_task(task);
    deliver(h, task);
    return {ev, task};
  }

  /// Answers post `i` and runs the actors (the commit of its row included).
  void answer(std::size_t i, actors::webhook_answer a) {
    transport.answer(i, std::move(a));
    run_pending();
  }

  /// The stored record of an endpoint; requires it to exist.
  schema::webhook_endpoint_record stored(const std::string& id) const {
    auto e = svc::test::found(tables.webhook_endpoints.get(id));
    BOOST_REQUIRE(e);
    return *e;
  }

  /// Every delivery row of an endpoint in creation order.
  std::vector<schema::delivery_record> deliveries_of(const std::string& endpoint_id) const {
    persistence::scan_range r;
    r.prefix = endpoint_id + "/";
    bool more = false;
    return svc::test::scanned(tables.deliveries.page(r, 100000, more));
  }

  /// Every stored task of an endpoint.
  std::vector<schema::delivery_task> tasks_of(const std::string& endpoint_id) const {
    persistence::scan_range r;
    r.prefix = endpoint_id + "/";
    bool more = false;
    return svc::test::scanned(tables.delivery_tasks.page(r, 100000, more));
  }

  /// The ids of every event still waiting for its fan-out.
  std::vector<std::string> pending_event_ids() const {
    std::vector<std::string> out;
    svc::test::require_ok(tables.pending_events.for_each_key([&](std::string_view k) {
      out.emplace_back(k);
      return true;
    }));
    return out;
  }

  /// Whether the team's event feed lists an event.
  bool listed(const schema::event_record& e) const {
    return svc::test::found(tables.events_by_team.get(persistence::owned_key(e.team_id, e.id))).has_value();
  }

  /// Runs every actor but the store, so commits wait there.
  void run_all_but_store() {
    auto* held_back = dynamic_cast<caf::resumable*>(caf::actor_cast<caf::abstract_actor*>(store));
    sched.run_jobs_filtered([=](caf::resumable* job) { return job != held_back; });
  }

  /// The catalogue code of an error answer.
  static schema::error_code code_of(const caf::error& err) { return actors::to_api_error(err).code; }

  /// The `data` member of a delivered body.
  static boost::json::value data_of(const std::string& body) { return boost::json::parse(body).at("data"); }
};

} // namespace svc::test
