// Image jobs across a clean svcd restart (SIGTERM; recovery_test.cpp covers
// SIGKILL): a job rendering at the stop is neither failed nor cancelled by
// the shutdown, runs again and is charged once; output URLs signed before the
// restart still verify; idempotency keys still replay.
#include <boost/test/unit_test.hpp>

#include <string>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_images_restart)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

struct render_3s : server_fixture {
  render_3s() : server_fixture({"--render-delay", "3s"}) {}
};

} // namespace

BOOST_FIXTURE_TEST_CASE(a_job_rendering_at_a_clean_stop_resumes_after_the_restart, render_3s) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto created = create_image_ok(c, t.write.key, image_body("survives a restart"));
  auto id = json_str(created, "id");
  auto credits = *json_int(created, "cost.credits");
  BOOST_REQUIRE(json_str(wait_status(c, t.read.key, id, "processing"), "status") == "processing");

  BOOST_TEST(svcd.restart() == 0);
  auto c2 = api();
  auto after = get_image(c2, t.read.key, id);
  auto status = json_str(after, "status");
  BOOST_TEST((status == "queued" || status == "processing"), "not ended by the restart: " << after);
  BOOST_TEST(json_str(after, "cost.status") == "held");
  BOOST_TEST(get_balance(c2, t.read.key).held == credits);

  auto done = wait_terminal(c2, t.read.key, id);
  BOOST_TEST(json_str(done, "status") == "succeeded", done);
  BOOST_TEST(json_str(done, "cost.status") == "charged");
  BOOST_TEST(json_size(done, "output_urls") == 1);
  auto b = get_balance(c2, t.read.key);
  BOOST_TEST(b.available == 1000 - credits, "charged once");
  BOOST_TEST(b.held == 0);
  BOOST_TEST(json_int(c2.get("/v1/usage", with_key(t.read.key)).json(), "total.credits_charged") == credits);
  BOOST_TEST(http_client{svcd.api_url()}.get(target_of(json_str(done, "output_urls.0"))).status == 200);
}

BOOST_FIXTURE_TEST_CASE(output_urls_and_idempotency_keys_survive_a_restart, server_fixture) {
  auto t = create_team_with_keys();
  auto c = api();
  auto body = image_body("before the restart");
  auto first = create_image(c, t.write.key, body, {{"Idempotency-Key", "across-restart"}});
  BOOST_REQUIRE_MESSAGE(first.status == 201, first.summary());
  auto done = wait_terminal(c, t.read.key, json_str(first.json(), "id"));
  BOOST_REQUIRE(json_str(done, "status") == "succeeded");
  auto target = target_of(json_str(done, "output_urls.0"));
  auto before = http_client{svcd.api_url()}.get(target);
  BOOST_REQUIRE(before.status == 200);

  BOOST_TEST(svcd.restart() == 0);
  auto c2 = api();
  auto after = http_client{svcd.api_url()}.get(target);
  BOOST_TEST(after.status == 200, "the URL secret lives in the data directory: " << after.summary());
  BOOST_TEST(after.body == before.body);
  // The record signs the same URL (on the new port of this test's restart).
  auto reread = get_image(c2, t.read.key, json_str(done, "id"));
  BOOST_TEST(json_str(reread, "status") == "succeeded");
  BOOST_TEST(target_of(json_str(reread, "output_urls.0")) == target);
  BOOST_TEST(json_str(reread, "outputs.0.sha256") == json_str(done, "outputs.0.sha256"));
  auto replay = create_image(c2, t.write.key, body, {{"Idempotency-Key", "across-restart"}});
  BOOST_TEST(replay.status == 201, replay.summary());
  BOOST_TEST(replay.header_or_empty("Idempotent-Replayed") == "true");
  BOOST_TEST(replay.body == first.body);
  BOOST_TEST(list_image_ids(c2, t.read.key).size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
