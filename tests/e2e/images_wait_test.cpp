// GET /v1/images/{id} with `Prefer: wait=N`: held until the job is terminal
// (one call instead of a polling loop) or N seconds pass, answered with
// `Preference-Applied`; N is capped at 60 and a malformed preference is ignored.
// A drain (SIGTERM) answers waiting requests at once with the job as it is,
// while the admin listener keeps serving and /readyz says 503.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <future>
#include <string>

#include "support/contract_guard.hpp"
#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/raw_connection.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_images_wait)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

// Renders take 2 s, so a GET right after the create finds the job unfinished.
struct render_2s : server_fixture {
  render_2s() : server_fixture({"--render-delay", "2s"}) {}
};

struct render_8s : server_fixture {
  render_8s() : server_fixture({"--render-delay", "8s"}) {}
};

struct render_60s_drain_30s : server_fixture {
  render_60s_drain_30s() : server_fixture({"--render-delay", "60s", "--drain-timeout", "30s", "--read-timeout", "3s"}) {}
};

struct timed_response {
  response r;
  std::chrono::milliseconds took;
};

timed_response timed_get(http_client& c, const std::string& target, const header_map& headers) {
  auto start = std::chrono::steady_clock::now();
  auto r = c.get(target, headers);
  return {std::move(r),
          std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start)};
}

} // namespace

BOOST_FIXTURE_TEST_CASE(wait_30_returns_the_terminal_record_in_one_call, render_2s) {
  auto t = create_team_with_keys();
  auto c = api();
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  c.set_timeout(20s); // a wait that ran its 30 s instead of ending with the render fails here
  auto got = timed_get(c, "/v1/images/" + id, with_key(t.read.key, {{"Prefer", "wait=30"}}));
  BOOST_REQUIRE_MESSAGE(got.r.status == 200, got.r.summary());
  auto job = got.r.json();
  BOOST_TEST(json_str(job, "status") == "succeeded", job);
  BOOST_TEST(json_size(job, "output_urls") == 1);
  BOOST_TEST(json_str(job, "cost.status") == "charged");
  BOOST_TEST(got.r.header_or_empty("Preference-Applied") == "wait=30");
  BOOST_TEST(got.took >= 1000ms, "answered before the 2 s render could finish");
  // The held answer is the stored record.
  BOOST_TEST(get_image(c, t.read.key, id) == job);
}

BOOST_FIXTURE_TEST_CASE(a_wait_that_runs_out_returns_the_live_record, render_8s) {
  auto t = create_team_with_keys();
  auto c = api();
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  auto got = timed_get(c, "/v1/images/" + id, with_key(t.read.key, {{"Prefer", "wait=1"}}));
  BOOST_REQUIRE_MESSAGE(got.r.status == 200, got.r.summary());
  auto status = json_str(got.r.json(), "status");
  BOOST_TEST((status == "queued" || status == "processing"), status);
  BOOST_TEST(got.r.header_or_empty("Preference-Applied") == "wait=1");
  BOOST_TEST(got.took >= 900ms); // a wait past its second would have seen the 8 s render end
  c.request("POST", "/v1/images/" + id + "/cancel", with_key(t.write.key));
}

BOOST_FIXTURE_TEST_CASE(malformed_preferences_are_ignored, render_8s) {
  auto t = create_team_with_keys();
  auto c = api();
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  for (std::string prefer : {"wait=abc", "wait=-3", "wait=0", "wait=", "respond-async"}) {
    BOOST_TEST_CONTEXT("Prefer: " << prefer) {
      auto got = timed_get(c, "/v1/images/" + id, with_key(t.read.key, {{"Prefer", prefer}}));
      BOOST_TEST(got.r.status == 200, got.r.summary());
      BOOST_TEST(!is_terminal_status(json_str(got.r.json(), "status")));
      BOOST_TEST(got.r.header_or_empty("Preference-Applied").empty());
    }
  }
  c.request("POST", "/v1/images/" + id + "/cancel", with_key(t.write.key));
}

BOOST_FIXTURE_TEST_CASE(waits_are_capped_at_60_seconds, render_2s) {
  auto t = create_team_with_keys();
  auto c = api();
  c.set_timeout(75s);
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  auto got = timed_get(c, "/v1/images/" + id, with_key(t.read.key, {{"Prefer", "handling=lenient, wait=3600"}}));
  BOOST_REQUIRE_MESSAGE(got.r.status == 200, got.r.summary());
  BOOST_TEST(json_str(got.r.json(), "status") == "succeeded");
  BOOST_TEST(got.r.header_or_empty("Preference-Applied") == "wait=60");
}

BOOST_FIXTURE_TEST_CASE(a_terminal_job_is_answered_at_once, server_fixture) {
  auto t = create_team_with_keys();
  auto c = api();
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, id), "status") == "succeeded");
  c.set_timeout(15s); // half the wait: a held answer fails here
  auto got = timed_get(c, "/v1/images/" + id, with_key(t.read.key, {{"Prefer", "wait=30"}}));
  BOOST_TEST(got.r.status == 200, got.r.summary());
  BOOST_TEST(json_str(got.r.json(), "status") == "succeeded");
}

BOOST_FIXTURE_TEST_CASE(waiting_on_another_teams_job_is_404, render_2s) {
  auto mine = create_team_with_keys();
  auto other = create_team_with_keys();
  auto c = api();
  auto id = json_str(create_image_ok(c, mine.write.key, image_body()), "id");
  // The owner's read leaves the job's view cached (job_view_cache.hpp); the
  // other team must still find nothing, with or without a wait.
  auto owners = c.get("/v1/images/" + id, with_key(mine.read.key));
  BOOST_TEST(owners.status == 200, owners.summary());
  auto plain = c.get("/v1/images/" + id, with_key(other.read.key));
  BOOST_TEST(is_error(plain, 404, "resource_not_found"), plain.summary());
  c.set_timeout(15s); // half the wait: a held answer fails here
  auto got = timed_get(c, "/v1/images/" + id, with_key(other.read.key, {{"Prefer", "wait=30"}}));
  BOOST_TEST(is_error(got.r, 404, "resource_not_found"), got.r.summary());
}

BOOST_FIXTURE_TEST_CASE(a_drain_answers_waiting_requests_at_once, render_60s_drain_30s) {
  auto t = create_team_with_keys();
  auto c = api();
  auto id = json_str(create_image_ok(c, t.write.key, image_body("a slow harbour")), "id");
  // Holds the drain open until the 3 s read timeout: time to ask /readyz.
  raw_connection unfinished{svcd.api_url()};
  BOOST_REQUIRE(unfinished.send("GET /v1/team HTTP/1.1\r\nHost: x\r\n"));
  raw_connection poll{svcd.api_url()};
  BOOST_REQUIRE(poll.send("GET /v1/images/" + id + " HTTP/1.1\r\nHost: x\r\nX-Api-Key: " + t.read.key
                          + "\r\nPrefer: wait=50\r\n\r\n"));
  // Answered on a later connection: the server has taken the poll's.
  BOOST_REQUIRE(c.get("/v1/team", with_key(t.read.key)).status == 200);

  auto stopping = std::async(std::launch::async, [this] { return svcd.stop(); });
  auto answer = poll.read_until_close(10s); // a fifth of its 50 s wait
  BOOST_TEST(answer.data.rfind("HTTP/1.1 200", 0) == 0u, answer.data.substr(0, 200));
  BOOST_TEST((answer.data.find("\"status\":\"queued\"") != std::string::npos
              || answer.data.find("\"status\":\"processing\"") != std::string::npos),
             "the job as it is, unfinished: " << answer.data.substr(0, 300));
  check_raw_answer_against_contract("GET", "/v1/images/" + id, answer.data);
  BOOST_TEST(answer.closed, "answered and closed within 10 s, not after its 50 s wait");
  bool saw_draining = false;
  while (!saw_draining && stopping.wait_for(0s) != std::future_status::ready) {
    try {
      auto ready = admin().get("/readyz");
      saw_draining = ready.status == 503 && json_str(ready.json(), "status") == "draining";
    } catch (const std::exception&) {
      break; // the listener is gone: the drain ended
    }
  }
  BOOST_TEST(saw_draining, "the admin listener serves while the API drains");
  BOOST_TEST(stopping.get() == 0);
}

BOOST_AUTO_TEST_SUITE_END()
