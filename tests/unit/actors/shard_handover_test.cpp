// A node lets go of a shard and another takes it over (issue 16, shard
// moves): real runtimes on real threads, LMDB in temp dirs, a render that
// is still running at release, a fake receiver for webhook deliveries.
#include "actors/shard_handover.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <thread>

#include "actors/runtime.hpp"
#include "core/ids.hpp"
#include "persistence/job_rows.hpp"
#include "persistence/webhook_rows.hpp"
#include "schema/event_types.hpp"
#include "schema/webhook_signature.hpp"
#include "schema/webhook_views.hpp"
#include "tests/support/read_results.hpp"
#include "tests/support/temp_dir.hpp"

BOOST_AUTO_TEST_SUITE(actors_shard_handover)

using namespace svc;
using namespace std::chrono_literals;

namespace {

// Answers every delivery 200 at once and remembers the URLs posted to; the
// endpoints post from actor threads.
class recording_transport final : public actors::webhook_transport {
public:
  void post(actors::webhook_post request, std::function<void(actors::webhook_answer)> done) override {
    {
      std::lock_guard<std::mutex> lock{mutex_};
      urls_.push_back(request.url);
    }
    actors::webhook_answer a;
    a.status = 200;
    done(std::move(a));
  }
  std::size_t posts_to(const std::string& url) const {
    std::lock_guard<std::mutex> lock{mutex_};
    return static_cast<std::size_t>(std::count(urls_.begin(), urls_.end(), url));
  }

private:
  mutable std::mutex mutex_;
  std::vector<std::string> urls_;
};

/// Polls `pred` until it holds or 20 s pass.
template <class Pred>
bool eventually(Pred pred) {
  auto deadline = std::chrono::steady_clock::now() + 20s;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

// Two teams: one of the shard that moves, one of another shard.
const std::string moving_team = "team_moving";
const core::shard_id moving_shard = core::shard_of_team(moving_team);
std::string other_team() {
  for (int i = 0;; ++i)
    if (auto t = "team_other_" + std::to_string(i); core::shard_of_team(t) != moving_shard)
      return t;
}

/// One node: its store, its runtime and whether it holds the moving shard.
struct node {
  std::string dir;
  core::config cfg;
  std::shared_ptr<core::offset_clock> clock = std::make_shared<core::offset_clock>();
  std::shared_ptr<std::atomic<bool>> holds_moving = std::make_shared<std::atomic<bool>>(true);
  recording_transport transport;
  std::unique_ptr<persistence::environment> env;
  caf::actor_system_config caf_cfg;
  std::unique_ptr<caf::actor_system> sys;
  std::unique_ptr<actors::runtime> rt;
  std::unique_ptr<persistence::tables> tables;

  node(std::string data_dir, std::chrono::milliseconds render_delay, bool holds) : dir(std::move(data_dir)) {
    holds_moving->store(holds);
    cfg.data_dir = dir;
    cfg.workers = 1;
    cfg.render_delay = render_delay;
    cfg.bucket_snapshot_interval = 1h; // only a release saves the levels
    std::string error;
    env = persistence::environment::open(dir, error, 64u << 20);
    BOOST_REQUIRE_MESSAGE(env, error);
    tables = std::make_unique<persistence::tables>(*env);
  }

  void start() {
    actors::configure_actor_system(caf_cfg, cfg);
    sys = std::make_unique<caf::actor_system>(caf_cfg);
    actors::runtime_links links;
    links.webhooks = &transport;
    links.owns_team = [held = holds_moving](const std::string& team) {
      return core::shard_of_team(team) != moving_shard || held->load();
    };
    std::string error;
    rt = actors::runtime::start(*sys, cfg, clock, *env, std::move(links), error);
    BOOST_REQUIRE_MESSAGE(rt, error);
  }

  ~node() {
    if (rt)
      rt->stop();
    rt.reset();
    sys.reset();
  }

  /// Asks `h` and waits for the answer (or the error).
  template <class T, class Handle, class... Ts>
  caf::expected<T> ask(const Handle& h, Ts&&... xs) {
    caf::scoped_actor self{*sys};
    caf::expected<T> out{caf::sec::request_timeout};
    self->request(h, 30s, std::forward<Ts>(xs)...)
      .receive([&](T& v) { out = std::move(v); }, [&](caf::error& e) { out = std::move(e); });
    return out;
  }

  const actors::runtime_handles& h() const { return rt->handles(); }

  /// The live actors of `team` the registry lists.
  std::size_t actors_of(const std::string& team) {
    auto listed = ask<std::vector<actors::actor_summary>>(h().registry, actors::list_atom::value,
                                                          actors::actor_filter{"", team, 1000});
    BOOST_REQUIRE(listed);
    return listed->size();
  }

  std::optional<schema::job_record> job(const std::string& id) { return test::found(tables->jobs.get(id)); }
  bool job_is(const std::string& id, schema::job_status s) {
    auto r = job(id);
    return r && r->status == s;
  }

  /// Creates an image job of `team` through the job directory.
  caf::expected<actors::admission_result> create_job(const std::string& team, const std::string& id) {
    schema::job_record j;
    j.id = id;
    j.team_id = team;
    j.prompt = "a lighthouse at dusk";
    j.width = j.height = 64;
    j.num_outputs = 1;
    j.seed = 7;
    j.steps = 2;
    j.credits = 2;
    j.api_version = "2025-01-01";
    j.created_at = clock->now();
    return ask<actors::admission_result>(h().jobs, actors::create_atom::value, actors::job_admission{j, std::nullopt});
  }
};

// The rows a node starts from: both teams with credits, and an endpoint of
// the moving team with a delivery task due in `due_in`.
struct seeded {
  schema::webhook_endpoint_record endpoint;
};

seeded seed(persistence::environment& env, const persistence::tables& tables, std::chrono::milliseconds due_in) {
  persistence::write_batch batch;
  auto now = std::chrono::system_clock::now();
  for (auto& id : {moving_team, other_team()}) {
    schema::team_record t;
    t.id = id;
    t.name = "Acme";
    t.owner_email = "owner@example.com";
    t.created_at = now;
    tables.teams.put(batch, id, t);
    tables.balances.put(batch, id, schema::balance_record{id, 1000, 0, {}});
  }
  seeded s;
  auto& e = s.endpoint;
  e.id = core::make_id("we", moving_shard); // ids name their team's shard, as the API mints them
  e.team_id = moving_team;
  e.url = "https://hooks.example.com/moving";
  e.events = {std::string{schema::image_completed}};
  e.secret = schema::make_webhook_secret();
  e.created_at = e.updated_at = now;
  persistence::put_endpoint(tables, batch, e);
  auto event = schema::mint_event(moving_team, schema::image_completed, "2025-01-01", false, now,
                                  boost::json::object{{"id", "img_x"}, {"object", "image"}});
  persistence::put_event(tables, batch, event, std::chrono::hours{24}, persistence::fan_out::done);
  persistence::put_task(tables, batch, schema::delivery_task{core::make_ulid(), e.id, event.id, 1, now + due_in});
  BOOST_REQUIRE(env.commit(batch).ok());
  return s;
}

/// Node A with three jobs of the moving team (one rendering, two queued),
/// a spent bucket and a pending delivery; then released.
struct released_node {
  test::temp_dir dir{"svc-handover-a"};
  node a{dir.path, 30s, true};
  seeded rows = seed(*a.env, *a.tables, 3s);
  std::vector<std::string> jobs{core::make_id("img", moving_shard), core::make_id("img", moving_shard),
                                core::make_id("img", moving_shard)};
  bool released = false;

  released_node() {
    a.start();
    for (auto& id : jobs)
      BOOST_REQUIRE(a.create_job(moving_team, id));
    BOOST_REQUIRE(eventually([&] { return a.job_is(jobs[0], schema::job_status::processing); }));
    auto charged = a.ask<actors::rate_decision>(a.h().buckets, actors::charge_atom::value, moving_team,
                                                schema::bucket_class::images_post, int64_t{5});
    BOOST_REQUIRE(charged && charged->allowed);
    BOOST_REQUIRE(eventually([&] { return a.actors_of(moving_team) >= 4; })); // bucket, ledger, jobs, endpoint
    a.holds_moving->store(false); // frozen, as the cluster does before a release
    auto r = a.ask<bool>(a.h().handover, actors::release_atom::value, moving_shard);
    BOOST_REQUIRE(r);
    released = *r;
  }
};

} // namespace

BOOST_FIXTURE_TEST_CASE(release_stops_every_actor_of_the_shard_and_keeps_its_rows, released_node) {
  BOOST_TEST(released);
  BOOST_TEST(eventually([&] { return a.actors_of(moving_team) == 0; }));
  // The jobs stay as they were, not failed: the rendering one processing, the others queued.
  BOOST_TEST(a.job_is(jobs[0], schema::job_status::processing));
  BOOST_TEST(a.job_is(jobs[1], schema::job_status::queued));
  BOOST_TEST(a.job_is(jobs[2], schema::job_status::queued));
  // The spent level was saved on the way out.
  auto snap = test::found(a.tables->buckets.get(moving_team));
  BOOST_REQUIRE(snap);
  auto level = snap->levels.find(std::string{schema::to_string(schema::bucket_class::images_post)});
  BOOST_REQUIRE(level != snap->levels.end());
  auto full = a.ask<actors::rate_decision>(a.h().buckets, actors::charge_atom::value, other_team(),
                                           schema::bucket_class::images_post, int64_t{0});
  BOOST_REQUIRE(full);
  // 5 were spent; the bucket refills meanwhile (a small fraction of a token
  // in the milliseconds before the release), so allow one.
  BOOST_TEST(level->second.tokens <= static_cast<double>(full->limit) - 4);
  // The other shard's team kept working.
  BOOST_TEST(static_cast<bool>(a.ask<schema::balance_record>(a.h().ledgers, caf::get_atom::value, other_team())));
  BOOST_TEST(static_cast<bool>(a.create_job(other_team(), core::make_id("img", core::shard_of_team(other_team())))));
  // No delivery went out from A after the release, though the task is due by now.
  BOOST_TEST(eventually([&] { return a.clock->now() > rows.endpoint.created_at + 3500ms; }));
  BOOST_TEST(a.transport.posts_to(rows.endpoint.url) == 0u);
}

BOOST_FIXTURE_TEST_CASE(a_team_not_held_gets_owner_unavailable_and_nothing_is_spawned, released_node) {
  using schema::error_code;
  auto unavailable = [](const auto& answer) {
    return !answer && actors::is_domain_error(answer.error(), error_code::owner_unavailable);
  };
  BOOST_TEST(unavailable(a.create_job(moving_team, core::make_id("img", moving_shard))));
  BOOST_TEST(unavailable(a.ask<actors::ledger_actor>(a.h().ledgers, actors::resolve_atom::value, moving_team)));
  BOOST_TEST(unavailable(a.ask<actors::bucket_actor>(a.h().buckets, actors::resolve_atom::value, moving_team)));
  BOOST_TEST(unavailable(a.ask<schema::job_record>(a.h().jobs, actors::wait_atom::value, moving_team, jobs[2])));
  BOOST_TEST(unavailable(a.ask<actors::issued_key>(a.h().keyring, actors::create_atom::value, moving_team,
                                                   schema::scope::read)));
  BOOST_TEST(eventually([&] { return a.actors_of(moving_team) == 0; }));
}

BOOST_FIXTURE_TEST_CASE(a_copy_resumes_nothing_of_the_shard_until_it_adopts_it, released_node) {
  // B starts from A's rows as they were after the release.
  a.rt->stop();
  a.rt.reset();
  a.sys.reset();
  a.env.reset();
  test::temp_dir copy{"svc-handover-b"};
  std::filesystem::copy(dir.path, copy.path, std::filesystem::copy_options::recursive
                                               | std::filesystem::copy_options::overwrite_existing);
  node b{copy.path, 0ms, false};
  b.start();
  BOOST_REQUIRE(eventually([&] {
    auto j = b.ask<actors::recovery_status>(b.h().jobs, actors::ready_atom::value);
    auto w = b.ask<actors::recovery_status>(b.h().webhooks, actors::ready_atom::value);
    return j && j->done && w && w->done;
  }));
  BOOST_TEST(b.actors_of(moving_team) == 0u);
  BOOST_TEST(b.job_is(jobs[2], schema::job_status::queued));

  b.holds_moving->store(true);
  auto adopted = b.ask<bool>(b.h().handover, actors::adopt_atom::value, moving_shard);
  BOOST_REQUIRE(adopted);
  BOOST_TEST(*adopted);
  for (auto& id : jobs)
    BOOST_TEST(eventually([&] { return b.job_is(id, schema::job_status::succeeded); }), id);
  BOOST_TEST(eventually([&] { return b.transport.posts_to(rows.endpoint.url) >= 1; }));
  // A second adoption finds everything live or done.
  auto again = b.ask<bool>(b.h().handover, actors::adopt_atom::value, moving_shard);
  BOOST_TEST((again && *again));
}

BOOST_AUTO_TEST_SUITE_END()
