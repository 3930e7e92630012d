// Supervision, proved with the --fault-injection switch that makes a live
// actor throw: a job actor that dies fails only its job (`internal`, hold
// refunded, `image.failed` published) while other teams' jobs, creates and
// reads go on; a directory that dies is respawned behind the same handle and
// recovers its children from LMDB; a ledger that dies is respawned with the
// balance LMDB holds.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>

#include <boost/json/serialize.hpp>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"
#include "support/webhook_receiver_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_supervision)

using namespace svc::e2e;

namespace {

/// Makes the live actors of `kind` and `id` throw; how many there were.
std::int64_t crash(const server_fixture& f, const std::string& kind, const std::string& id) {
  auto headers = f.admin_auth();
  headers["Content-Type"] = "application/json";
  auto r = f.admin().request("POST", "/admin/faults", headers,
                             R"({"crash_kind": ")" + kind + R"(", "crash_id": ")" + id + R"("})");
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  return json_int(r.json(), "crashed").value_or(-1);
}

/// Whether `/admin/actors?kind=` lists an actor of that kind and id.
bool lists(const server_fixture& f, const std::string& kind, const std::string& id) {
  auto r = f.admin().get("/admin/actors?kind=" + kind, f.admin_auth());
  if (r.status != 200)
    return false;
  auto body = r.json();
  for (auto& a : body.at("data").as_array())
    if (json_str(a, "id") == id)
      return true;
  return false;
}

struct crashable : server_fixture {
  // Renders take long enough to crash their jobs while they run.
  crashable() : server_fixture({"--fault-injection", "--render-delay", "60s"}) {}
};

struct crashable_hooks : webhook_fixture {
  crashable_hooks() : webhook_fixture({"--fault-injection"}) {}
};

std::vector<std::string> event_types(http_client& c, const std::string& key) {
  std::vector<std::string> out;
  auto r = c.get("/v1/events", with_key(key));
  if (r.status != 200)
    return out;
  auto body = r.json();
  for (auto& e : body.at("data").as_array())
    out.push_back(json_str(e, "type"));
  return out;
}

// Whether a receipt is the completion event of job `id`.
std::function<bool(const receipt&)> event_is_of_job(std::string id) {
  return [id](const receipt& r) { return r.type == "image.completed" && json_str(r.envelope, "data.id") == id; };
}

} // namespace

BOOST_FIXTURE_TEST_CASE(a_job_actor_that_dies_fails_only_its_job, crashable) {
  auto a = create_team_with_keys(1000);
  auto b = create_team_with_keys(1000);
  auto c = api();
  auto doomed = json_str(create_image_ok(c, a.write.key, image_body("a lighthouse")), "id");
  auto other = json_str(create_image_ok(c, b.write.key, image_body("a harbour")), "id");
  BOOST_REQUIRE(wait_until([&] { return lists(*this, "job", doomed); }, std::chrono::seconds{20}));
  BOOST_REQUIRE(get_balance(c, a.read.key).held > 0);

  BOOST_TEST(crash(*this, "job", doomed) == 1);
  auto failed = wait_terminal(c, a.read.key, doomed, std::chrono::seconds{20});
  BOOST_TEST(json_str(failed, "status") == "failed", boost::json::serialize(failed));
  BOOST_TEST(json_str(failed, "failure.code") == "internal");
  BOOST_TEST(json_str(failed, "cost.status") == "refunded");
  auto balance = get_balance(c, a.read.key);
  BOOST_TEST(balance.available == 1000);
  BOOST_TEST(balance.held == 0);
  BOOST_TEST(wait_until(
    [&] {
      auto types = event_types(c, a.read.key);
      return std::find(types.begin(), types.end(), "image.failed") != types.end();
    },
    std::chrono::seconds{20}));

  // The other team's job runs on; its creates and reads answer as before.
  BOOST_TEST(json_str(get_image(c, b.read.key, other), "status") != "failed");
  BOOST_TEST(lists(*this, "job", other));
  auto next = create_image(c, b.write.key, image_body("a pier"));
  BOOST_TEST(next.status == 201, next.summary());
  BOOST_TEST(c.get("/v1/team", with_key(b.read.key)).status == 200);
}

BOOST_FIXTURE_TEST_CASE(a_directory_that_dies_is_respawned_with_its_jobs, crashable) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto live = json_str(create_image_ok(c, t.write.key, image_body("a lighthouse")), "id");
  BOOST_REQUIRE(wait_until([&] { return lists(*this, "job", live); }, std::chrono::seconds{20}));

  BOOST_TEST(crash(*this, "job_directory", "job_directory") == 1);
  // Respawned: it lists itself again and has resumed the live job.
  BOOST_TEST(wait_until([&] { return lists(*this, "job_directory", "job_directory") && lists(*this, "job", live); },
                        std::chrono::seconds{20}));
  BOOST_TEST(json_str(get_image(c, t.read.key, live), "status") != "failed");
  auto created = create_image(c, t.write.key, image_body("a harbour"));
  BOOST_TEST(created.status == 201, created.summary());
  auto cancelled = c.request("POST", "/v1/images/" + live + "/cancel", with_key(t.write.key), "");
  BOOST_TEST(cancelled.status == 200, cancelled.summary());
  BOOST_TEST(json_str(cancelled.json(), "status") == "cancelled");
  auto balance = get_balance(c, t.read.key);
  BOOST_TEST(balance.available + balance.held == 1000, "nothing charged; only the new job holds credits");
}

BOOST_FIXTURE_TEST_CASE(a_ledger_that_dies_is_respawned_from_lmdb, crashable) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto live = json_str(create_image_ok(c, t.write.key, image_body("a lighthouse")), "id");
  auto before = get_balance(c, t.read.key);
  BOOST_REQUIRE(before.held > 0);

  BOOST_TEST(crash(*this, "ledger", t.id) == 1);
  BOOST_TEST(wait_until(
    [&] {
      auto now = get_balance(c, t.read.key);
      return now.available == before.available && now.held == before.held;
    },
    std::chrono::seconds{20}));
  auto cancelled = c.request("POST", "/v1/images/" + live + "/cancel", with_key(t.write.key), "");
  BOOST_TEST(cancelled.status == 200, cancelled.summary());
  auto after = get_balance(c, t.read.key);
  BOOST_TEST(after.available == 1000);
  BOOST_TEST(after.held == 0);
}

BOOST_FIXTURE_TEST_CASE(the_crash_switch_checks_its_body, crashable) {
  auto headers = admin_auth();
  headers["Content-Type"] = "application/json";
  auto r = admin().request("POST", "/admin/faults", headers, R"({"crash_kind": "job"})");
  BOOST_TEST((is_error(r, 400, "invalid_parameter") || is_error(r, 400, "missing_parameter")), r.summary());
  BOOST_TEST(crash(*this, "job", "img_unknown") == 0);
}

BOOST_FIXTURE_TEST_CASE(an_endpoint_or_its_directory_that_dies_is_respawned_and_delivers, crashable_hooks) {
  auto t = create_webhook_team(*this, 1000);
  auto c = api();
  auto endpoint = json_str(create_endpoint_ok(c, t.write.key, hooks->url()), "id");
  BOOST_REQUIRE(wait_until([&] { return lists(*this, "endpoint", endpoint); }, std::chrono::seconds{20}));

  BOOST_TEST(crash(*this, "endpoint", endpoint) == 1);
  auto first = json_str(create_image_ok(c, t.write.key, image_body("a lighthouse")), "id");
  BOOST_TEST(wait_for_receipt(*hooks, event_is_of_job(first), std::chrono::seconds{20}).has_value());

  BOOST_TEST(crash(*this, "endpoint_directory", "endpoint_directory") == 1);
  BOOST_TEST(wait_until([&] { return lists(*this, "endpoint_directory", "endpoint_directory"); },
                        std::chrono::seconds{20}));
  auto second = json_str(create_image_ok(c, t.write.key, image_body("a harbour")), "id");
  BOOST_TEST(wait_for_receipt(*hooks, event_is_of_job(second), std::chrono::seconds{20}).has_value());
  auto listed = c.get("/v1/webhook_endpoints/" + endpoint, with_key(t.read.key));
  BOOST_TEST(listed.status == 200, listed.summary());
}

BOOST_AUTO_TEST_SUITE_END()
