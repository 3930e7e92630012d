// Webhook deliveries across a crash (operations.md: "SIGKILL at any moment
// loses no acknowledged write"): svcd is killed with SIGKILL while a retry is
// pending, test fires were just acknowledged and jobs are still rendering;
// after a restart on the same data directory every event reaches the
// (now healthy) receiver at least once.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <map>
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

BOOST_AUTO_TEST_SUITE(e2e_webhook_recovery)

using namespace svc::e2e;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

// Retries 3 s apart: attempt 2 of the first event is still pending at the
// kill. One worker, 500 ms a render: the last jobs are unfinished at the kill.
struct slow_retries : webhook_fixture {
  slow_retries()
    : webhook_fixture({"--retry-schedule", "3s,3s,3s,3s", "--render-delay", "500ms", "--workers", "1"}) {}
};

reply status_reply(unsigned status) {
  reply r;
  r.status = status;
  return r;
}

std::vector<json::value> feed(http_client& c, const std::string& key) {
  std::vector<json::value> out;
  std::string after;
  for (int page = 0; page < 100; ++page) {
    auto r = c.get("/v1/events?limit=100" + (after.empty() ? "" : "&starting_after=" + after), with_key(key));
    BOOST_TEST_REQUIRE(r.status == 200, r.summary());
    auto list = r.json();
    auto n = json_size(list, "data");
    for (long i = 0; i < n; ++i)
      out.push_back(*json_at(list, "data." + std::to_string(i)));
    if (json_bool(list, "has_more") != true || n <= 0)
      break;
    after = json_str(list, "data." + std::to_string(n - 1) + ".id");
  }
  return out;
}

} // namespace

BOOST_FIXTURE_TEST_CASE(every_event_reaches_the_receiver_after_sigkill_and_restart, slow_retries) {
  auto t = create_webhook_team(*this, 10000);
  auto c = api();
  auto failing = std::make_shared<std::atomic<bool>>(true); // shared with the receiver's threads
  hooks->set_handler([failing](const received_request&) { return *failing ? status_reply(500) : status_reply(200); });
  auto endpoint = create_endpoint_ok(c, t.write.key, hooks->url());
  auto endpoint_id = json_str(endpoint, "id");
  auto secret = json_str(endpoint, "secret");

  // Job A completes; its first attempt fails and attempt 2 is stored for 3 s later.
  auto a = json_str(create_image_ok(c, t.write.key, image_body("before the crash")), "id");
  BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, a), "status") == "succeeded");
  auto first = wait_for_receipt(
    *hooks, [&](const receipt& rc) { return rc.type == "image.completed" && json_str(rc.envelope, "data.id") == a; },
    10s);
  BOOST_REQUIRE_MESSAGE(first.has_value(), "attempt 1 of " << a << "'s event never came");
  auto a_event = first->event_id;
  auto rows = wait_deliveries(
    c, t.read.key, endpoint_id, [](auto& rows) { return !rows.empty(); }, 10s);
  BOOST_REQUIRE_EQUAL(rows.size(), 1u);
  BOOST_TEST(json_int(rows[0], "attempt") == 1);
  BOOST_TEST(json_str(rows[0], "error_class") == "http_5xx");
  BOOST_TEST(parse_iso8601_ms(json_str(rows[0], "next_attempt_at")) > 0, "attempt 2 is pending");

  // Just before the kill: three acknowledged test fires and three jobs.
  std::set<std::string> fired;
  for (const char* type : {"image.completed", "image.failed", "usage.balance_low"})
    fired.insert(test_fire_ok(c, t.write.key, endpoint_id, type));
  std::vector<std::string> jobs{a};
  for (int i = 0; i < 3; ++i)
    jobs.push_back(json_str(create_image_ok(c, t.write.key, image_body("in flight " + std::to_string(i))), "id"));
  svcd.kill9();
  auto a_receipts_before = 0u;
  for (auto& rc : receipts_of(*hooks))
    a_receipts_before += rc.event_id == a_event;
  BOOST_TEST(a_receipts_before == 1u, "attempt 2 came before the kill: the retry was not pending");
  BOOST_TEST_MESSAGE(hooks->request_count() << " requests before the kill");

  *failing = false;
  hooks->clear(); // from here on every receipt was answered 200
  svcd.start();
  auto c2 = api();
  for (auto& j : jobs)
    BOOST_REQUIRE_MESSAGE(json_str(wait_terminal(c2, t.read.key, j), "status") == "succeeded", j);

  // Every event the feed knows (one image.completed per job) and every test fire.
  std::set<std::string> expected = fired;
  std::map<std::string, std::string> event_of_job;
  for (auto& e : feed(c2, t.read.key)) {
    expected.insert(json_str(e, "id"));
    if (json_str(e, "type") == "image.completed")
      event_of_job[json_str(e, "data.id")] = json_str(e, "id");
  }
  for (auto& j : jobs)
    BOOST_TEST(event_of_job.count(j) == 1u, "the feed has " << j << "'s image.completed");
  BOOST_TEST(expected.size() == fired.size() + jobs.size(), "no other events");

  std::set<std::string> missing;
  bool all = wait_until(
    [&] {
      std::set<std::string> seen;
      for (auto& rc : receipts_of(*hooks))
        seen.insert(rc.event_id);
      missing.clear();
      for (auto& e : expected)
        if (!seen.count(e))
          missing.insert(e);
      return missing.empty();
    },
    30s, 50ms);
  std::string left;
  for (auto& m : missing)
    left += " " + m;
  BOOST_TEST(all, "events not delivered 30 s after the restart:" << left);
  for (auto& rc : receipts_of(*hooks))
    BOOST_TEST(svc_signature_valid(rc.request, secret), rc.event_id << " is signed with the endpoint's secret");

  // A's event went out again as its stored attempt 2.
  auto after = wait_deliveries(
    c2, t.read.key, endpoint_id,
    [&](auto& rows) {
      for (auto& r : rows)
        if (json_str(r, "event_id") == a_event && json_str(r, "status") == "succeeded")
          return true;
      return false;
    },
    10s);
  bool a_ok = false;
  for (auto& r : after)
    if (json_str(r, "event_id") == a_event && json_str(r, "status") == "succeeded") {
      a_ok = true;
      BOOST_TEST(json_int(r, "attempt") == 2, json::serialize(r));
    }
  BOOST_TEST(a_ok, "no succeeded row for " << a_event);
  auto record = get_endpoint(c2, t.read.key, endpoint_id);
  BOOST_TEST(json_bool(record, "is_active") == true);
  BOOST_TEST(json_int(record, "consecutive_failures") == 0);
}

BOOST_AUTO_TEST_SUITE_END()
