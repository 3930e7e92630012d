// A restart after SIGKILL with a backlog (architecture.md "Recovery"):
// hundreds of queued jobs and webhook deliveries whose retry is pending.
// From the restart on, the API answers reads, `/readyz` answers 503
// `recovering` until the backlog is back in memory and then 200 with what
// came back, and nothing is lost: every delivery reaches the receiver, every
// job is still there to cancel (refunded), the one being rendered too.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <boost/json/serialize.hpp>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"
#include "support/webhook_receiver_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_restart_backlog)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

constexpr int queued_jobs = 300;
constexpr int pending_deliveries = 200;
constexpr std::int64_t granted = 1000000;

// One worker whose render never ends: every job but one stays queued.
// Retries 3 s apart: every delivery is pending at the kill, due soon after
// the restart; and the failing endpoint is not disabled meanwhile.
struct backlog_server : webhook_fixture {
  backlog_server()
    : webhook_fixture({"--render-delay", "1h", "--workers", "1", "--retry-schedule", "3s,3s,3s,3s",
                       "--disable-failures", "100000"}) {}
};

// The answers to `n` POSTs of `body` to `target`, sent on one connection.
std::vector<response> post_many(http_client& c, const std::string& key, const std::string& target,
                                const std::function<std::string(int)>& body, int n) {
  std::vector<request_spec> batch;
  for (int i = 0; i < n; ++i)
    batch.push_back({"POST", target, with_key(key, {{"Content-Type", "application/json"}}), body(i)});
  return c.pipeline(batch);
}

} // namespace

BOOST_FIXTURE_TEST_CASE(a_restart_with_a_backlog_answers_at_once_and_loses_nothing, backlog_server) {
  auto t = create_webhook_team(*this, granted);
  raise_bucket(*this, t.id, "images_post");
  auto c = api();
  auto failing = std::make_shared<std::atomic<bool>>(true); // shared with the receiver's threads
  hooks->set_handler([failing](const received_request&) {
    reply r;
    r.status = *failing ? 500 : 200;
    return r;
  });
  // Test fires reach it whatever it subscribes to; the cancels at the end do not.
  auto endpoint_id = json_str(create_endpoint_ok(c, t.write.key, hooks->url(), {"video.completed"}), "id");

  std::vector<std::string> jobs;
  for (auto& r : post_many(c, t.write.key, "/v1/images",
                           [](int i) { return boost::json::serialize(image_body("backlog " + std::to_string(i))); },
                           queued_jobs)) {
    BOOST_REQUIRE_MESSAGE(r.status == 201, r.summary());
    jobs.push_back(json_str(r.json(), "id"));
  }
  std::set<std::string> events;
  for (auto& r : post_many(c, t.write.key, "/v1/webhook_endpoints/" + endpoint_id + "/test",
                           [](int) { return std::string{R"({"event_type": "image.completed"})"}; },
                           pending_deliveries)) {
    BOOST_REQUIRE_MESSAGE(r.status == 202, r.summary());
    events.insert(json_str(r.json(), "event_id"));
  }
  // Every first attempt failed: each delivery waits for its retry.
  BOOST_REQUIRE(wait_until([&] { return receipts_of(*hooks).size() >= std::size_t{pending_deliveries}; }, 30s));

  svcd.kill9();
  svcd.start();
  auto c2 = api();
  auto admin_client = admin();
  boost::json::value readiness;
  int reads = 0;
  bool ready = wait_until(
    [&] {
      // Every read answers, recovering or not.
      auto read = c2.get("/v1/images/" + jobs[reads++ % queued_jobs], with_key(t.read.key));
      BOOST_TEST(read.status == 200, read.summary());
      auto r = admin_client.get("/readyz");
      readiness = r.json();
      BOOST_TEST((r.status == 200 || (r.status == 503 && json_str(readiness, "status") == "recovering")),
                 r.summary());
      return r.status == 200;
    },
    60s, 5ms);
  BOOST_REQUIRE_MESSAGE(ready, "/readyz never answered 200: " << boost::json::serialize(readiness));
  BOOST_TEST(json_str(readiness, "status") == "ok");
  BOOST_TEST(json_int(readiness, "recovered.jobs") == queued_jobs, boost::json::serialize(readiness));
  BOOST_TEST(json_int(readiness, "recovered.deliveries") == pending_deliveries, boost::json::serialize(readiness));

  // Every pending delivery arrives once the receiver answers 200.
  *failing = false;
  auto delivered = [&] {
    std::set<std::string> ok;
    for (auto& row : all_deliveries(c2, t.read.key, endpoint_id))
      if (json_str(row, "status") == "succeeded")
        ok.insert(json_str(row, "event_id"));
    return ok;
  };
  BOOST_TEST(wait_until([&] { return delivered() == events; }, 60s, 100ms), "every pending delivery delivered");

  // Every job is still there: queued, or rendering again; each cancels and is refunded.
  std::vector<request_spec> cancels;
  for (auto& id : jobs)
    cancels.push_back({"POST", "/v1/images/" + id + "/cancel", with_key(t.write.key), ""});
  auto answers = c2.pipeline(cancels);
  BOOST_REQUIRE(answers.size() == jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    BOOST_TEST(answers[i].status == 200, jobs[i] << ": " << answers[i].summary());
    if (answers[i].status == 200)
      BOOST_TEST(json_str(answers[i].json(), "status") == "cancelled", jobs[i]);
  }
  BOOST_TEST(wait_until(
    [&] {
      auto b = get_balance(c2, t.read.key);
      return b.held == 0 && b.available == granted;
    },
    30s));
}

BOOST_AUTO_TEST_SUITE_END()
