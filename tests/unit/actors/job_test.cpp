#include "actors/job.hpp"

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <thread>

#include <algorithm>
#include <filesystem>
#include <string>

#include "core/crypto.hpp"
#include "faulty_store.hpp"
#include "job_fixture.hpp"
#include "media_probe.hpp"
#include "persistence/job_rows.hpp"
#include "tests/support/read_results.hpp"

BOOST_AUTO_TEST_SUITE(actors_job)

// The job actor's state machine, driven through the job directory as svcd
// drives it: real renders on a real worker pool, the queue TTL on virtual time.

namespace {

using namespace svc::actors;
using namespace svc::schema;

// A validated video job made of an image job: 1 s of 160x96 at 8 fps.
job_record as_video(job_record j) {
  j.id = "vid_" + j.id.substr(4);
  j.kind = svc::schema::job_kind::video;
  j.width = 160;
  j.height = 96;
  j.duration_seconds = 1;
  j.fps = 8;
  return j;
}

// Regular files under `folder`, temp files included.
std::size_t files_in(const std::string& folder) {
  std::error_code ec;
  std::size_t n = 0;
  for (auto it = std::filesystem::recursive_directory_iterator{folder, ec};
       !ec && it != std::filesystem::recursive_directory_iterator{}; it.increment(ec))
    n += it->is_regular_file();
  return n;
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(job_suite, svc::test::job_fixture)

BOOST_AUTO_TEST_CASE(a_job_runs_from_queued_through_processing_to_succeeded) {
  start(scripted);
  auto j = create(make_job("a lighthouse at dusk [hold]", 40, 2));
  // Admitted: the job, its hold and its live row are durable before the answer.
  auto queued = stored(j.id);
  BOOST_TEST((queued.status == job_status::queued || queued.status == job_status::processing));
  BOOST_TEST(svc::test::found(tables.live_jobs.get(j.id)).has_value());
  BOOST_TEST((svc::test::found(tables.jobs_by_team.get(team + "/" + j.id)) == std::optional<std::string>{j.id}));
  BOOST_TEST(holds(j.id));
  BOOST_TEST(balance_is(opening - 40, 40));

  BOOST_REQUIRE(run_until([&] {
    auto r = svc::test::found(tables.jobs.get(j.id));
    return r && r->status == job_status::processing && r->progress == 0.5;
  }));
  auto processing = stored(j.id);
  BOOST_TEST(processing.started_at.has_value());
  BOOST_TEST(!processing.completed_at);

  scripted.release();
  auto r = finish(j.id);
  BOOST_TEST((r.status == job_status::succeeded));
  BOOST_TEST(r.progress == 1.0);
  BOOST_TEST(!r.failure);
  BOOST_REQUIRE(r.completed_at.has_value());
  BOOST_TEST((*r.completed_at >= *r.started_at));
  // Outputs stored, each with the hash of its bytes.
  BOOST_REQUIRE(r.outputs.size() == 2u);
  for (std::size_t i = 0; i < r.outputs.size(); ++i) {
    auto bytes = blobs.get(svc::schema::output_blob_key(r, i));
    BOOST_REQUIRE(bytes);
    BOOST_TEST(r.outputs[i].sha256 == svc::core::to_hex(svc::core::sha256(*bytes)));
    BOOST_TEST(r.outputs[i].bytes == bytes->size());
    BOOST_TEST(r.outputs[i].content_type == "image/png");
    BOOST_TEST(r.outputs[i].width == 256);
    BOOST_TEST(r.outputs[i].height == 256);
  }
  // Charged: the hold is gone and the day's usage counts the job.
  BOOST_TEST((r.cost_status == hold_status::charged));
  BOOST_TEST(balance_is(opening - 40, 0));
  BOOST_TEST(!holds(j.id));
  auto day = usage_of(*r.completed_at);
  BOOST_REQUIRE(day);
  BOOST_TEST(day->credits_charged == 40);
  BOOST_TEST(day->images == 2);
  // No longer live; its outputs expire after the output TTL.
  BOOST_TEST(!svc::test::found(tables.live_jobs.get(j.id)));
  BOOST_REQUIRE(r.outputs_expire_at.has_value());
  BOOST_TEST((*r.outputs_expire_at == *r.completed_at + cfg.output_ttl));
  auto expiry = svc::persistence::expiry_key(*r.outputs_expire_at, svc::persistence::expiry_kind::outputs, j.id);
  BOOST_TEST((svc::test::found(tables.expiries.get(expiry)) == std::optional<std::string>{j.id}));
  BOOST_TEST(state_of<job_directory_state>(jobs).admitted == 1u);
}

BOOST_AUTO_TEST_CASE(the_procedural_backend_renders_a_small_job) {
  start(procedural);
  auto j = create(make_job("a quiet harbour under snow", 25));
  auto r = finish(j.id);
  BOOST_TEST((r.status == job_status::succeeded));
  BOOST_REQUIRE(r.outputs.size() == 1u);
  auto bytes = blobs.get(svc::schema::output_blob_key(r, 0));
  BOOST_REQUIRE(bytes);
  BOOST_TEST(bytes->substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  BOOST_TEST(r.outputs[0].sha256 == svc::core::to_hex(svc::core::sha256(*bytes)));
  BOOST_TEST(r.outputs[0].width == 256);
  BOOST_TEST(balance_is(opening - 25, 0));
}

// The worker gives the renderer the blob's temp file to write the MP4 into
// as it is muxed, and commits it: the blob is the very video the renderer
// returns in memory, index in front, with its size and hash recorded.
BOOST_AUTO_TEST_CASE(a_video_is_streamed_into_its_blob_and_committed) {
  start(procedural);
  auto j = create(as_video(make_job("a harbour at dawn", 25)));
  auto r = finish(j.id);
  BOOST_TEST((r.status == job_status::succeeded));
  BOOST_REQUIRE(r.outputs.size() == 1u);
  BOOST_TEST(svc::schema::output_blob_key(r, 0) == "outputs/" + j.id + ".0.mp4");
  auto bytes = blobs.get(svc::schema::output_blob_key(r, 0));
  BOOST_REQUIRE(bytes);
  BOOST_TEST(r.outputs[0].sha256 == svc::core::to_hex(svc::core::sha256(*bytes)));
  BOOST_TEST(r.outputs[0].bytes == bytes->size());
  BOOST_TEST(r.outputs[0].content_type == "video/mp4");
  const auto mismatch = svc::test::h264_mp4_mismatch(*bytes, 160, 96, 8, 1.0);
  BOOST_TEST(mismatch.empty(), mismatch);
  const auto boxes = svc::test::top_level_boxes(*bytes);
  BOOST_TEST((std::find(boxes.begin(), boxes.end(), "moov") < std::find(boxes.begin(), boxes.end(), "mdat")));
  svc::providers::render_request same;
  same.prompt = j.prompt;
  same.width = j.width;
  same.height = j.height;
  same.seed = j.seed;
  same.steps = j.steps;
  same.duration_seconds = j.duration_seconds;
  same.fps = j.fps;
  auto in_memory = procedural.render(same, {}, svc::providers::cancel_token{});
  BOOST_REQUIRE(in_memory.ok());
  BOOST_TEST((in_memory.value().outputs.front() == *bytes));
  BOOST_TEST(faulty.puts == 0, "streamed in, never held whole for a put");
  BOOST_TEST(files_in(dir.path + "/blobs/outputs") == 1u, "no temp file left");
  BOOST_TEST(balance_is(opening - 25, 0));
}

// The disk fills up while the MP4 is being written: the job fails as any
// output that cannot be stored, refunded, and leaves no file, partial or temp.
BOOST_AUTO_TEST_CASE(a_video_the_disk_refuses_mid_encode_fails_the_job_and_leaves_no_file) {
  start(procedural);
  faulty.room = 4096;
  auto j = create(as_video(make_job("a harbour at dawn", 25)));
  auto r = finish(j.id);
  BOOST_TEST((r.status == job_status::failed));
  BOOST_REQUIRE(r.failure.has_value());
  BOOST_TEST(r.failure->code == "provider_error");
  BOOST_TEST(r.failure->message == "storing the output failed");
  check_refunded(r);
  BOOST_TEST(pool_idle());
  BOOST_TEST(files_in(dir.path + "/blobs/outputs") == 0u);
  BOOST_TEST(balance_is(opening, 0));
}

BOOST_AUTO_TEST_CASE(a_provider_failure_fails_the_job_and_refunds) {
  start(scripted);
  auto j = create(make_job("a lighthouse [fail]"));
  auto r = finish(j.id);
  BOOST_TEST((r.status == job_status::failed));
  BOOST_REQUIRE(r.failure.has_value());
  BOOST_TEST(r.failure->code == "provider_error");
  BOOST_TEST(r.failure->message == "the test back end failed");
  check_refunded(r);
  BOOST_TEST(balance_is(opening, 0));
  bool more = false;
  BOOST_TEST(svc::test::scanned(tables.expiries.keys({}, 10, more)).empty());
}

BOOST_AUTO_TEST_CASE(the_init_image_bytes_reach_the_back_end) {
  start(scripted);
  std::string bytes = "\x89PNG init image bytes";
  BOOST_REQUIRE(blobs.put(svc::schema::file_blob_key("file_01KAK3R5N2W9X7Q4V6B8C0D1EF"), bytes).ok());
  auto j = make_job("a lighthouse");
  j.init_image = "file_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  create(j);
  auto r = finish(j.id);
  BOOST_TEST((r.status == job_status::succeeded));
  BOOST_TEST(scripted.init_image() == bytes);
}

BOOST_AUTO_TEST_CASE(an_init_image_deleted_before_the_start_fails_the_job) {
  start(scripted);
  auto j = make_job("a lighthouse");
  j.init_image = "file_01KAK3R5N2W9X7Q4V6B8C0D1EF"; // no bytes: the file expired meanwhile
  create(j);
  auto r = finish(j.id);
  BOOST_TEST((r.status == job_status::failed));
  BOOST_REQUIRE(r.failure.has_value());
  BOOST_TEST(r.failure->code == "init_image_unavailable");
  BOOST_TEST(r.failure->message.find(*j.init_image) != std::string::npos);
  BOOST_TEST(scripted.started() == 0); // never rendered
  check_refunded(r);
  BOOST_TEST(balance_is(opening, 0));
}

BOOST_AUTO_TEST_CASE(an_output_that_cannot_be_stored_fails_the_job_and_leaves_no_files) {
  start(scripted);
  faulty.fail_on = ".1.png";
  auto j = create(make_job("a lighthouse", 40, 3));
  auto r = finish(j.id);
  BOOST_TEST((r.status == job_status::failed));
  BOOST_REQUIRE(r.failure.has_value());
  BOOST_TEST(r.failure->code == "provider_error");
  BOOST_TEST(r.failure->message == "storing the output failed");
  check_refunded(r); // output 0 was stored before output 1 failed: removed again
  for (std::size_t i = 1; i < 3; ++i)
    BOOST_TEST(!blobs.get(svc::schema::output_blob_key(r, i)));
  BOOST_TEST(balance_is(opening, 0));
}

BOOST_AUTO_TEST_CASE(cancel_while_processing_stops_the_render_and_refunds) {
  start(scripted);
  auto j = create(make_job("a lighthouse [hold]"));
  BOOST_REQUIRE(reaches(j.id, job_status::processing));
  // `processing` is stored before the render thread counts its start.
  for (auto until = std::chrono::steady_clock::now() + std::chrono::seconds{5};
       scripted.started() == 0 && std::chrono::steady_clock::now() < until;)
    std::this_thread::sleep_for(std::chrono::milliseconds{1});
  BOOST_TEST(scripted.started() == 1);

  auto c = ask<job_record>(jobs, cancel_atom::value, team, j.id);
  BOOST_REQUIRE(c.value);
  BOOST_TEST((c.value->status == job_status::cancelled));
  BOOST_TEST((c.value->cost_status == hold_status::refunded));
  BOOST_TEST(balance_is(opening, 0));
  // The render saw the cancel and returned without output.
  BOOST_REQUIRE(run_until([&] { return scripted.cancelled() == 1 && pool->running() == 0; }));
  auto r = finish(j.id);
  BOOST_TEST((r.status == job_status::cancelled));
  BOOST_TEST(!r.failure);
  check_refunded(r);
}

BOOST_AUTO_TEST_CASE(a_render_finishing_after_the_cancel_leaves_no_files) {
  start(scripted);
  auto j = create(make_job("a lighthouse [late]", 40, 2));
  BOOST_REQUIRE(reaches(j.id, job_status::processing));
  auto c = ask<job_record>(jobs, cancel_atom::value, team, j.id);
  BOOST_REQUIRE(c.value);
  BOOST_TEST((c.value->status == job_status::cancelled));
  scripted.release(); // the back end completes the render anyway
  BOOST_REQUIRE(pool_idle());
  auto r = finish(j.id);
  BOOST_TEST((r.status == job_status::cancelled));
  check_refunded(r);
  BOOST_TEST(!blobs.get(svc::schema::output_blob_key(r, 1)));
  BOOST_TEST(balance_is(opening, 0));
}

BOOST_AUTO_TEST_CASE(a_prompt_breaking_a_moderation_rule_is_rejected_without_rendering) {
  start(scripted);
  auto j = create(make_job("a gory battlefield at noon"));
  // Settled during the create itself: nothing reached the pool.
  auto r = stored(j.id);
  BOOST_TEST((r.status == job_status::moderation_rejected));
  BOOST_REQUIRE(r.failure.has_value());
  BOOST_TEST(r.failure->code == "moderation_rejected");
  BOOST_TEST(r.failure->message.find("gory") != std::string::npos);
  check_refunded(r);
  BOOST_TEST(balance_is(opening, 0));
  BOOST_TEST(pool->queued() == 0u);
  BOOST_TEST(pool->running() == 0u);
  BOOST_TEST(scripted.started() == 0);
  // The negative prompt is checked too (a back end may weigh it either way), and named in the failure.
  auto negative = make_job("a battlefield at noon");
  negative.negative_prompt = "gore";
  create(negative);
  auto n = stored(negative.id);
  BOOST_TEST((n.status == job_status::moderation_rejected));
  BOOST_REQUIRE(n.failure.has_value());
  BOOST_TEST(n.failure->message.find("negative_prompt") != std::string::npos, n.failure->message);
  BOOST_TEST(scripted.started() == 0);
  auto ok = make_job("a battlefield at noon");
  ok.negative_prompt = "fog";
  create(ok);
  BOOST_TEST((finish(ok.id).status == job_status::succeeded));
}

BOOST_AUTO_TEST_CASE(a_job_no_worker_takes_within_the_queue_ttl_expires) {
  start(scripted, 1);
  auto busy = create(make_job("a lighthouse [hold]"));
  BOOST_REQUIRE(reaches(busy.id, job_status::processing));
  auto waiting = create(make_job("a harbour", 30));
  BOOST_TEST(pool->queued() == 1u);
  BOOST_TEST((stored(waiting.id).status == job_status::queued));

  advance(std::chrono::duration_cast<std::chrono::milliseconds>(cfg.queue_ttl) - std::chrono::seconds{1});
  BOOST_TEST((stored(waiting.id).status == job_status::queued));
  advance(std::chrono::seconds{1});
  auto r = finish(waiting.id);
  BOOST_TEST((r.status == job_status::expired));
  BOOST_REQUIRE(r.failure.has_value());
  BOOST_TEST(r.failure->code == "queue_expired");
  check_refunded(r);
  // The job being rendered is past its deadline too, but it is not queued.
  BOOST_TEST((stored(busy.id).status == job_status::processing));
  BOOST_TEST(balance_is(opening - 40, 40));

  // Once the worker is free, the expired job's task is dropped unrendered.
  BOOST_REQUIRE(ask<job_record>(jobs, cancel_atom::value, team, busy.id).value);
  BOOST_REQUIRE(pool_idle());
  BOOST_TEST(scripted.started() == 1);
  BOOST_TEST(balance_is(opening, 0));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_FIXTURE_TEST_CASE(a_progress_write_that_fails_is_made_again_until_it_lands, svc::test::job_fixture) {
  auto failing = std::make_shared<std::atomic<bool>>(true);
  pool = std::make_unique<svc::providers::worker_pool>(2);
  auto c = ctx();
  c.store = track(sys.spawn(svc::test::faulty_store, store, failing));
  svc::actors::job_services services{&scripted, pool.get(), &faulty, &moderation, ledgers};
  jobs = track(sys.spawn(svc::actors::job_directory, c, services));
  run_pending();
  auto j = create(make_job("a lighthouse [hold]"));
  BOOST_REQUIRE(run_until([&] { return scripted.started() == 1; }));
  run_pending();
  BOOST_TEST((stored(j.id).status == job_status::queued), "the write of `processing` failed");
  *failing = false;
  advance(std::chrono::seconds{1});
  BOOST_TEST((stored(j.id).status == job_status::processing));
  scripted.release();
  BOOST_TEST((finish(j.id).status == job_status::succeeded));
}

BOOST_AUTO_TEST_SUITE_END()
