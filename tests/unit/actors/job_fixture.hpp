#pragma once
// The test bed of the job actor and the job directory: the actor fixture
// plus real renders (a scripted back end or the procedural one) on a real
// worker pool, output files in the temp dir behind a blob store that can be
// made to fail, and two teams with an opening balance. Worker messages reach
// the actors through `run_until`; the queue TTL runs on virtual time.

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "actor_fixture.hpp"
#include "actors/job.hpp"
#include "actors/job_directory.hpp"
#include "actors/ledger.hpp"
#include "actors/ledger_directory.hpp"
#include "core/time_format.hpp"
#include "persistence/blob_store.hpp"
#include "providers/procedural_renderer.hpp"
#include "scripted_backend.hpp"
#include "tests/support/read_results.hpp"

namespace svc::test {

/// A blob being written to a disk with room for `room` bytes: writes past
/// them fail out of room, as a full disk fails them mid-file.
class full_disk_writer final : public persistence::blob_writer {
public:
  full_disk_writer(std::unique_ptr<persistence::blob_writer> inner, uint64_t room)
    : inner_(std::move(inner)), room_(room) {}
  bool write_at(uint64_t offset, const char* data, std::size_t size, std::string& error) override {
    if (offset + size > room_)
      full_ = {"No space left on device", true};
    if (full_.ok())
      return inner_->write_at(offset, data, size, error);
    error = full_.message;
    return false;
  }
  int64_t read_at(uint64_t offset, char* data, std::size_t size) const override {
    return inner_->read_at(offset, data, size);
  }
  uint64_t size() const override { return inner_->size(); }
  const persistence::status& failure() const override { return full_.ok() ? inner_->failure() : full_; }
  persistence::status commit() override { return full_.ok() ? inner_->commit() : full_; }

private:
  std::unique_ptr<persistence::blob_writer> inner_;
  uint64_t room_;
  persistence::status full_;
};

/// Blobs on disk, except that puts and creates of keys containing `fail_on`
/// fail (a full disk), and blobs streamed in fill the disk past `room` bytes.
class faulty_blobs final : public persistence::blob_store {
public:
  explicit faulty_blobs(persistence::blob_store& disk) : disk_(disk) {}
  std::string fail_on; ///< set before the job is created; read on pool threads
  uint64_t room = UINT64_MAX; ///< likewise
  std::atomic<int> puts{0}; ///< puts made, failed or not

  persistence::status put(std::string_view key, std::string_view bytes) override {
    ++puts;
    if (!fail_on.empty() && key.find(fail_on) != std::string_view::npos)
      return {"No space left on device"};
    return disk_.put(key, bytes);
  }
  persistence::status create(std::string_view key, std::unique_ptr<persistence::blob_writer>& out) override {
    if (!fail_on.empty() && key.find(fail_on) != std::string_view::npos)
      return {"No space left on device"};
    auto st = disk_.create(key, out);
    if (st.ok() && room != UINT64_MAX)
      out = std::make_unique<full_disk_writer>(std::move(out), room);
    return st;
  }
  std::optional<std::string> get(std::string_view key) const override { return disk_.get(key); }
  std::optional<uint64_t> size(std::string_view key) const override { return disk_.size(key); }
  std::optional<std::string> read_range(std::string_view key, uint64_t offset, uint64_t length) const override {
    return disk_.read_range(key, offset, length);
  }
  std::unique_ptr<persistence::blob_file> open(std::string_view key) const override { return disk_.open(key); }
  persistence::status remove(std::string_view key) override { return disk_.remove(key); }

private:
  persistence::blob_store& disk_;
};

struct job_fixture : actor_fixture {
  static inline const std::string team = "team_1";
  static constexpr int64_t opening = 1000; ///< every team's credits at start

  scripted_backend scripted;
  providers::procedural_renderer procedural;
  persistence::file_blob_store blobs{dir.path + "/blobs"};
  faulty_blobs faulty{blobs};
  providers::moderation_rules moderation = providers::moderation_rules::defaults();
  std::unique_ptr<providers::worker_pool> pool;
  actors::ledger_directory_actor ledgers;
  actors::job_directory_actor jobs;
  int next_id = 0;

  explicit job_fixture(uint64_t map_size = core::default_map_size) : actor_fixture(map_size) {
    cfg.queue_ttl = std::chrono::minutes{1};
    cfg.output_ttl = std::chrono::hours{1};
    open_team(team);
    open_team("team_2");
    ledgers = track(sys.spawn(actors::ledger_directory, ctx()));
    sched.run();
  }

  // Renders stop before the actors do, and the actors before the services they use go.
  ~job_fixture() {
    if (pool)
      pool->shutdown();
    if (jobs)
      stop(jobs);
  }

  /// Stores a team and its opening balance, as the team directory does.
  void open_team(const std::string& id) { store_team(id, opening); }

  /// Starts the pool and the job directory (which recovers `live_jobs`).
  void start(providers::generation_backend& backend, int threads = 2) {
    pool = std::make_unique<providers::worker_pool>(threads);
    actors::job_services services{&backend, pool.get(), &faulty, &moderation, ledgers};
    jobs = track(sys.spawn(actors::job_directory, ctx(), services));
    run_pending();
  }

  /// A validated 256x256 image job of `team`, as the create handler builds it.
  schema::job_record make_job(const std::string& prompt, int64_t credits = 40, int outputs = 1) {
    schema::job_record j;
    char id[32];
    std::snprintf(id, sizeof id, "img_%04d", next_id++);
    j.id = id;
    j.team_id = team;
    j.prompt = prompt;
    j.width = j.height = 256;
    j.num_outputs = outputs;
    j.seed = 7;
    j.steps = 4;
    j.credits = credits;
    j.api_version = "2025-01-01";
    j.created_at = clock->now();
    return j;
  }

  /// Creates `j` through the job directory; requires it admitted.
  schema::job_record create(const schema::job_record& j) {
    auto r = ask<actors::admission_result>(jobs, actors::create_atom::value, actors::job_admission{j, std::nullopt});
    BOOST_REQUIRE(r.value);
    BOOST_REQUIRE(!r.value->replayed);
    return j;
  }

  /// A job's record in LMDB; required to exist.
  schema::job_record stored(const std::string& id) const {
    auto r = svc::test::found(tables.jobs.get(id));
    BOOST_REQUIRE(r);
    return *r;
  }

  /// Runs until the stored record has `status`.
  bool reaches(const std::string& id, schema::job_status status) {
    return run_until([&] {
      auto r = svc::test::found(tables.jobs.get(id));
      return r && r->status == status;
    });
  }

  /// Runs until the stored record is terminal and its actor is gone.
  schema::job_record finish(const std::string& id) {
    BOOST_REQUIRE(run_until([&] {
      auto r = svc::test::found(tables.jobs.get(id));
      return r && schema::is_terminal(r->status) && state_of<actors::job_directory_state>(jobs).jobs.count(id) == 0;
    }));
    return stored(id);
  }

  /// Runs until no render is queued or running.
  bool pool_idle() {
    return run_until([&] { return pool->queued() == 0 && pool->running() == 0; });
  }

  /// `team`'s balance in LMDB.
  schema::balance_record stored_balance() const {
    auto b = svc::test::found(tables.balances.get(team));
    BOOST_REQUIRE(b);
    return *b;
  }

  /// Whether `team`'s stored balance has these amounts.
  bool balance_is(int64_t available, int64_t held) const {
    auto b = stored_balance();
    return b.available == available && b.held == held;
  }

  /// Whether a job has an open hold in LMDB.
  bool holds(const std::string& job_id) const {
    return svc::test::found(tables.holds.get(actors::hold_key(team, job_id))).has_value();
  }

  /// `team`'s usage row of the UTC day of `t`.
  std::optional<schema::usage_record> usage_of(core::time_point t) const {
    return svc::test::found(tables.usage.get(actors::usage_key(team, core::format_iso8601(t).substr(0, 10))));
  }

  /// Checks a job that ended without a charge: refunded, no usage, no outputs.
  void check_refunded(const schema::job_record& r) const {
    BOOST_TEST((r.cost_status == schema::hold_status::refunded));
    BOOST_TEST(r.completed_at.has_value());
    BOOST_TEST(r.outputs.empty());
    BOOST_TEST(!r.outputs_expire_at);
    BOOST_TEST(!holds(r.id));
    BOOST_TEST(!svc::test::found(tables.live_jobs.get(r.id)));
    BOOST_TEST(!usage_of(*r.completed_at));
    BOOST_TEST(!blobs.get(schema::output_blob_key(r, 0)));
  }

  /// The catalogue code of an error answer.
  static schema::error_code code_of(const caf::error& err) { return actors::to_api_error(err).code; }
};

} // namespace svc::test
