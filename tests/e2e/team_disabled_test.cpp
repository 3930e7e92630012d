// A team disabled by the operator (svcctl team disable): every API request
// with any of its keys is refused with 403 team_disabled from the very next
// request on (the key cache holds no stale team), across a restart, until
// svcctl team enable gives the access back at once. Jobs accepted before the
// disable still finish and are charged.
#include <boost/test/unit_test.hpp>

#include <boost/json/serialize.hpp>

#include <string>

#include "support/file_uploads.hpp"
#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_team_disabled)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

bool is_disabled_answer(const response& r) {
  return is_error(r, 403, "team_disabled") && r.json().as_object().at("error").as_object().at("message").as_string()
                                                .find("disabled") != boost::json::string::npos;
}

// One request of each kind a disabled team must not make (reads, images, endpoints, key management, uploads, test
// fires), with the key of the scope it needs.
void expect_every_kind_refused(http_client& c, const team_keys& t) {
  BOOST_TEST(is_disabled_answer(c.get("/v1/balance", with_key(t.read.key))), "read");
  BOOST_TEST(is_disabled_answer(c.get("/v1/team", {{"Authorization", "Bearer " + t.read.key}})), "bearer");
  BOOST_TEST(is_disabled_answer(create_image(c, t.write.key, image_body("refused"))), "image");
  auto json = with_key(t.write.key, {{"Content-Type", "application/json"}});
  auto endpoint =
    c.request("POST", "/v1/webhook_endpoints", json, R"({"url":"https://127.0.0.1:9/hook","events":["*"]})");
  BOOST_TEST(is_disabled_answer(endpoint), endpoint.summary());
  auto keys = c.get("/v1/api_keys", with_key(t.full.key));
  BOOST_TEST(is_disabled_answer(keys), keys.summary());
  auto upload = upload_file(c, t.write.key, test_image("tiny.png"));
  BOOST_TEST(is_disabled_answer(upload), upload.summary());
  // Refused before the route looks for the endpoint: a disabled team learns nothing about its ids.
  auto fire = c.request("POST", "/v1/webhook_endpoints/we_01J" + std::string(23, '0') + "/test", json,
                        R"({"event_type":"image.completed"})");
  BOOST_TEST(is_disabled_answer(fire), fire.summary());
}

struct render_2s : server_fixture {
  render_2s() : server_fixture({"--render-delay", "2s"}) {}
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(team_disabled, server_fixture)

BOOST_AUTO_TEST_CASE(a_disable_refuses_the_teams_keys_from_the_next_request_and_enable_restores_them) {
  auto t = create_team_with_keys();
  auto other = create_team_with_keys();
  auto c = api();
  // The keys are in the key cache before the disable.
  BOOST_REQUIRE(c.get("/v1/balance", with_key(t.read.key)).status == 200);
  BOOST_REQUIRE(c.get("/v1/balance", with_key(t.write.key)).status == 200);

  ctl_ok({"team", "disable", "--team", t.id, "--reason", "chargeback"});
  expect_every_kind_refused(c, t);
  auto refused = c.get("/v1/balance", with_key(t.read.key));
  BOOST_TEST(refused.header("X-RateLimit-Limit").has_value(), "a refusal draws from a bucket too");
  BOOST_TEST(refused.body.find("chargeback") == std::string::npos, "the operator's reason is not the team's to read");
  BOOST_TEST(c.get("/v1/balance", with_key(other.read.key)).status == 200, "another team is untouched");
  // The console's team table marks it.
  auto overview = admin().get("/admin/overview", admin_auth()).json();
  for (auto& row : overview.at("teams").at("data").as_array())
    BOOST_TEST(row.at("disabled_at").is_null() == (row.at("id").as_string() != t.id), boost::json::serialize(row));

  ctl_ok({"team", "enable", "--team", t.id});
  auto back = c.get("/v1/balance", with_key(t.read.key));
  BOOST_TEST(back.status == 200, back.summary());
  BOOST_TEST(create_image(c, t.write.key, image_body("allowed again")).status == 201);
}

BOOST_AUTO_TEST_CASE(a_disable_survives_a_restart) {
  auto t = create_team_with_keys();
  ctl_ok({"team", "disable", "--team", t.id});
  BOOST_REQUIRE(svcd.restart() == 0);
  auto c = api();
  expect_every_kind_refused(c, t);
  BOOST_TEST(json_bool(ctl_ok({"team", "show", "--team", t.id}), "disabled") == true);

  ctl_ok({"team", "enable", "--team", t.id});
  BOOST_REQUIRE(svcd.restart() == 0);
  auto after = api().get("/v1/balance", with_key(t.read.key));
  BOOST_TEST(after.status == 200, after.summary());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_FIXTURE_TEST_CASE(a_job_accepted_before_the_disable_finishes_and_is_charged, render_2s) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto created = create_image_ok(c, t.write.key, image_body("finishes anyway"));
  auto id = json_str(created, "id");
  auto credits = *json_int(created, "cost.credits");
  ctl_ok({"team", "disable", "--team", t.id});
  BOOST_TEST(is_disabled_answer(c.get("/v1/images/" + id, with_key(t.read.key))));

  boost::json::value job;
  BOOST_REQUIRE_MESSAGE(wait_until(
                          [&] {
                            job = ctl_ok({"job", "show", "--job", id});
                            return is_terminal_status(json_str(job, "status"));
                          },
                          30s, 200ms),
                        "the job did not end: " << job);
  BOOST_TEST(json_str(job, "status") == "succeeded", job);
  BOOST_TEST(json_str(job, "cost.status") == "charged", job);
  auto team = ctl_ok({"team", "show", "--team", t.id});
  BOOST_TEST(json_int(team, "balance.available") == 1000 - credits, team);
  BOOST_TEST(json_int(team, "balance.held") == 0, team);
  BOOST_TEST(json_bool(team, "disabled") == true, team);
}

BOOST_AUTO_TEST_SUITE_END()
