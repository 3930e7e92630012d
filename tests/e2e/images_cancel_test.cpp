// POST /v1/images/{id}/cancel: a processing or queued job is cancelled at
// once with its hold refunded; cancelling a terminal job is 409
// invalid_state; unknown, malformed and other teams' ids are 404.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <string>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_images_cancel)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

// One worker busy 5 s per job: the first job is processing, the next queued.
struct slow_single_worker : server_fixture {
  slow_single_worker() : server_fixture({"--render-delay", "5s", "--workers", "1"}) {}
};

response cancel(http_client& c, const std::string& key, const std::string& id) {
  return c.request("POST", "/v1/images/" + id + "/cancel", with_key(key));
}

} // namespace

BOOST_FIXTURE_TEST_CASE(cancel_while_processing_refunds_the_hold, slow_single_worker) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto created = create_image_ok(c, t.write.key, image_body());
  auto id = json_str(created, "id");
  auto credits = json_int(created, "cost.credits").value_or(-1);
  BOOST_REQUIRE(json_str(wait_status(c, t.read.key, id, "processing"), "status") == "processing");
  auto held = get_balance(c, t.read.key);
  BOOST_TEST(held.available == 1000 - credits);
  BOOST_TEST(held.held == credits);

  auto start = std::chrono::steady_clock::now();
  auto r = cancel(c, t.write.key, id);
  auto took = std::chrono::steady_clock::now() - start;
  BOOST_TEST(took < 3s, "cancel does not wait for the render");
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  auto job = r.json();
  BOOST_TEST(json_str(job, "id") == id);
  BOOST_TEST(json_str(job, "object") == "image");
  BOOST_TEST(json_str(job, "status") == "cancelled");
  BOOST_TEST(json_str(job, "cost.status") == "refunded");
  BOOST_TEST(json_int(job, "cost.credits") == credits);
  BOOST_TEST(json_size(job, "output_urls") == 0);
  BOOST_TEST(parse_iso8601_ms(json_str(job, "completed_at")) > 0, json_str(job, "completed_at"));

  auto after = get_balance(c, t.read.key);
  BOOST_TEST(after.available == 1000);
  BOOST_TEST(after.held == 0);
  BOOST_TEST(get_image(c, t.read.key, id) == job, "the cancel answer is the stored record");

  auto again = cancel(c, t.write.key, id);
  BOOST_TEST(is_error(again, 409, "invalid_state"), again.summary());
  BOOST_TEST(json_str(again.json(), "error.type") == "invalid_request");
  BOOST_TEST(get_balance(c, t.read.key).available == 1000, "a second cancel refunds nothing");
}

BOOST_FIXTURE_TEST_CASE(cancel_a_queued_job_behind_a_busy_worker, slow_single_worker) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto first = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  BOOST_REQUIRE(json_str(wait_status(c, t.read.key, first, "processing"), "status") == "processing");
  auto second = create_image_ok(c, t.write.key, image_body());
  auto second_id = json_str(second, "id");
  BOOST_TEST(json_str(get_image(c, t.read.key, second_id), "status") == "queued");

  auto r = cancel(c, t.write.key, second_id);
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  BOOST_TEST(json_str(r.json(), "status") == "cancelled");
  BOOST_TEST(json_str(r.json(), "cost.status") == "refunded");
  BOOST_TEST(json_is_null(r.json(), "started_at"), "it never started");
  BOOST_TEST(json_str(get_image(c, t.read.key, first), "status") == "processing", "the other job runs on");
  auto credits_first = json_int(get_image(c, t.read.key, first), "cost.credits").value_or(-1);
  BOOST_TEST(get_balance(c, t.read.key).held == credits_first);

  BOOST_TEST(cancel(c, t.write.key, first).status == 200);
  auto b = get_balance(c, t.read.key);
  BOOST_TEST(b.available == 1000);
  BOOST_TEST(b.held == 0);
}

BOOST_FIXTURE_TEST_CASE(cancel_of_unknown_or_foreign_ids_is_404, slow_single_worker) {
  auto mine = create_team_with_keys();
  auto other = create_team_with_keys();
  auto c = api();
  auto id = json_str(create_image_ok(c, mine.write.key, image_body()), "id");
  for (std::string unknown : {"img_00000000000000000000000000", "vid_00000000000000000000000000", "img_nope",
                              "file_00000000000000000000000000"}) {
    auto r = cancel(c, mine.write.key, unknown);
    BOOST_TEST(is_error(r, 404, "resource_not_found"), unknown << " -> " << r.summary());
  }
  auto foreign = cancel(c, other.write.key, id);
  BOOST_TEST(is_error(foreign, 404, "resource_not_found"), foreign.summary());
  auto read_only = cancel(c, mine.read.key, id);
  BOOST_TEST(is_error(read_only, 403, "missing_scope"), read_only.summary());
  auto status = json_str(get_image(c, mine.read.key, id), "status");
  BOOST_TEST((status == "queued" || status == "processing"), "refused cancels leave the job alone: " << status);
  BOOST_TEST(cancel(c, mine.write.key, id).status == 200);
}

BOOST_AUTO_TEST_CASE(cancel_of_a_finished_job_is_invalid_state) {
  server_fixture f;
  auto t = f.create_team_with_keys(1000);
  auto c = f.api();
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  auto done = wait_terminal(c, t.read.key, id);
  BOOST_REQUIRE(json_str(done, "status") == "succeeded");
  auto r = cancel(c, t.write.key, id);
  BOOST_TEST(is_error(r, 409, "invalid_state"), r.summary());
  BOOST_TEST(json_str(r.json(), "error.param") == "id");
  BOOST_TEST(get_image(c, t.read.key, id) == done, "the record is unchanged");
  BOOST_TEST(get_balance(c, t.read.key).available == 1000 - *json_int(done, "cost.credits"), "still charged");
}

namespace {

// Commits can be slowed (--fault-injection) past a short request deadline.
struct slow_commits : server_fixture {
  slow_commits()
      : server_fixture({"--render-delay", "5s", "--workers", "1", "--fault-injection", "--request-deadline", "1s"}) {}

  void delay_commits(int ms) {
    auto r = admin().request("POST", "/admin/faults", admin_auth(),
                             R"({"store_commit_delay_ms": )" + std::to_string(ms) + "}");
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  }
};

} // namespace

// A cancel whose refund commit outlasts the request deadline happened: its
// answer waits for the commit and says so, instead of 503 `unavailable`.
BOOST_FIXTURE_TEST_CASE(a_cancel_whose_refund_commits_slowly_answers_once_it_is_durable, slow_commits) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  BOOST_REQUIRE(json_str(wait_status(c, t.read.key, id, "processing"), "status") == "processing");

  delay_commits(2500);
  auto start = std::chrono::steady_clock::now();
  auto r = cancel(c, t.write.key, id);
  auto took = std::chrono::steady_clock::now() - start;
  delay_commits(0);
  BOOST_TEST_MESSAGE("the cancel answered after "
                     << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms");
  BOOST_TEST(took >= 2s, "it waited for the slow commit");
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  auto job = r.json();
  BOOST_TEST(json_str(job, "status") == "cancelled");
  BOOST_TEST(json_str(job, "cost.status") == "refunded");
  BOOST_TEST(get_image(c, t.read.key, id) == job, "the answer is the stored record");
  auto b = get_balance(c, t.read.key);
  BOOST_TEST(b.available == 1000);
  BOOST_TEST(b.held == 0);
  auto again = cancel(c, t.write.key, id);
  BOOST_TEST(is_error(again, 409, "invalid_state"), again.summary());
}

BOOST_AUTO_TEST_SUITE_END()
