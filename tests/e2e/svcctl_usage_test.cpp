// svcctl usage export: a team's usage per UTC day as CSV, JSON lines or svcd's
// JSON, the same figures GET /v1/usage answers the team itself.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include <boost/json.hpp>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"
#include "support/text_lines.hpp"

BOOST_AUTO_TEST_SUITE(e2e_svcctl_usage)

using namespace svc::e2e;

BOOST_FIXTURE_TEST_CASE(usage_export_prints_what_the_team_sees, server_fixture) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto body = image_body();
  body["num_outputs"] = 2;
  auto id = json_str(create_image_ok(c, t.write.key, body), "id");
  auto done = wait_terminal(c, t.read.key, id);
  BOOST_REQUIRE_MESSAGE(json_str(done, "status") == "succeeded", done);
  auto today = json_str(done, "completed_at").substr(0, 10);
  auto charged = *json_int(done, "cost.credits");

  auto seen = c.get("/v1/usage", with_key(t.read.key));
  BOOST_REQUIRE_MESSAGE(seen.status == 200, seen.summary());
  auto as_json = ctl_ok({"usage", "export", "--team", t.id, "--format", "json"});
  BOOST_TEST(as_json == seen.json(), as_json);

  auto csv = ctl({"usage", "export", "--team", t.id});
  BOOST_REQUIRE_MESSAGE(csv.exit_code == 0, csv.err);
  auto rows = lines_of(csv.out);
  BOOST_REQUIRE_EQUAL(rows.size(), 31u); // the header and the 30 days ending today
  BOOST_TEST(rows.front() == "team_id,date,credits_charged,images,videos");
  BOOST_TEST(rows.back() == t.id + "," + today + "," + std::to_string(charged) + ",2,0");
  BOOST_TEST(rows[1] == t.id + "," + json_str(seen.json(), "start") + ",0,0,0");

  auto jsonl = ctl({"usage", "export", "--team", t.id, "--format", "jsonl", "--start", today, "--end", today});
  BOOST_REQUIRE_MESSAGE(jsonl.exit_code == 0, jsonl.err);
  auto records = lines_of(jsonl.out);
  BOOST_REQUIRE_EQUAL(records.size(), 1u);
  auto day = boost::json::parse(records[0]);
  BOOST_TEST(json_str(day, "team_id") == t.id);
  BOOST_TEST(json_str(day, "date") == today);
  BOOST_TEST(*json_int(day, "credits_charged") == charged);
  BOOST_TEST(*json_int(day, "images") == 2);
}

BOOST_FIXTURE_TEST_CASE(usage_export_refuses_what_it_cannot_answer, server_fixture) {
  auto t = create_team_with_keys(10);
  auto unknown = ctl({"usage", "export", "--team", "team_01J" + std::string(23, '0')});
  BOOST_TEST(unknown.exit_code == 1, unknown.err);
  BOOST_TEST(json_str(unknown.err_json, "error.code") == "resource_not_found", unknown.err);

  auto bad_date = ctl({"usage", "export", "--team", t.id, "--start", "yesterday"});
  BOOST_TEST(bad_date.exit_code == 1, bad_date.err);
  BOOST_TEST(json_str(bad_date.err_json, "error.code") == "invalid_parameter", bad_date.err);
  BOOST_TEST(bad_date.out.empty(), bad_date.out);

  for (std::vector<std::string> args : {std::vector<std::string>{"usage", "export", "--team", t.id, "--format", "xml"},
                                        std::vector<std::string>{"usage", "export"},
                                        std::vector<std::string>{"usage", "export", "--team", t.id, "--days", "3"}}) {
    auto refused = ctl(args);
    BOOST_TEST(refused.exit_code == 2, refused.err);
    BOOST_TEST(refused.out.empty(), refused.out);
  }
}

BOOST_AUTO_TEST_SUITE_END()
