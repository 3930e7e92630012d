// svcctl credits add / history / refund: every change of a team's balance is
// listed with the balance after it, a succeeded job's charge is refunded once,
// and the history survives a restart.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include <boost/json.hpp>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"
#include "support/text_lines.hpp"

BOOST_AUTO_TEST_SUITE(e2e_svcctl_credits)

using namespace svc::e2e;

namespace {

// The history's entries as svcd lists them, newest first.
boost::json::array history(const server_fixture& f, const std::string& team) {
  return f.ctl_ok({"credits", "history", "--team", team, "--format", "json"}).at("data").as_array();
}

// Whether `e` is an entry of this kind, amount and balance after.
bool is(const boost::json::value& e, const char* kind, int64_t amount, int64_t available, int64_t held) {
  return json_str(e, "kind") == kind && json_int(e, "amount") == amount && json_int(e, "balance.available") == available
         && json_int(e, "balance.held") == held;
}

} // namespace

BOOST_FIXTURE_TEST_CASE(history_lists_grant_hold_charge_and_refund_and_survives_a_restart, server_fixture) {
  auto t = create_team_with_keys(0);
  auto granted = ctl_ok({"credits", "add", "--team", t.id, "--amount", "500", "--reason", "pilot budget"});
  BOOST_TEST(*json_int(granted, "available") == 500);
  auto c = api();
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  auto done = wait_terminal(c, t.read.key, id);
  BOOST_REQUIRE_MESSAGE(json_str(done, "status") == "succeeded", done);
  auto price = *json_int(done, "cost.credits");
  BOOST_TEST(json_str(done, "cost.status") == "charged");

  auto refund = ctl_ok({"credits", "refund", "--job", id, "--reason", "blank render"});
  BOOST_TEST(is(refund, "refund", price, 500, 0), refund);
  BOOST_TEST(json_str(refund, "job_id") == id);
  BOOST_TEST(json_str(refund, "reason") == "blank render");
  auto job = get_image(c, t.read.key, id);
  BOOST_TEST(json_str(job, "cost.status") == "refunded", job);
  BOOST_TEST(get_balance(c, t.read.key).available == 500);

  auto check = [&](const boost::json::array& entries) {
    BOOST_REQUIRE_EQUAL(entries.size(), 4u);
    BOOST_TEST(is(entries[0], "refund", price, 500, 0), entries[0]);
    BOOST_TEST(is(entries[1], "charge", -price, 500 - price, 0), entries[1]);
    BOOST_TEST(is(entries[2], "hold", -price, 500 - price, price), entries[2]);
    BOOST_TEST(is(entries[3], "grant", 500, 500, 0), entries[3]);
    BOOST_TEST(json_str(entries[3], "reason") == "pilot budget");
    BOOST_TEST(json_is_null(entries[3], "job_id"));
    for (int i = 0; i < 3; ++i)
      BOOST_TEST(json_str(entries[i], "job_id") == id);
    BOOST_TEST(json_str(entries[0], "id") == json_str(refund, "id"));
  };
  check(history(*this, t.id));

  BOOST_TEST(svcd.restart() == 0);
  check(history(*this, t.id));
}

BOOST_FIXTURE_TEST_CASE(a_second_refund_is_409_and_changes_nothing, server_fixture) {
  auto t = create_team_with_keys(100);
  auto c = api();
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, id), "status") == "succeeded");
  BOOST_REQUIRE(ctl({"credits", "refund", "--job", id}).exit_code == 0);
  auto before = history(*this, t.id);

  auto again = ctl({"credits", "refund", "--job", id, "--reason", "twice"});
  BOOST_TEST(again.exit_code == 1, again.err);
  BOOST_TEST(json_str(again.err_json, "error.code") == "invalid_state", again.err);
  BOOST_TEST(again.out.empty(), again.out);
  auto admin_client = admin();
  auto raw = admin_client.request("POST", "/admin/jobs/" + id + "/refund", admin_auth(), "{}");
  BOOST_TEST(is_error(raw, 409, "invalid_state"), raw.summary());
  BOOST_TEST(history(*this, t.id) == before);
  BOOST_TEST(get_balance(c, t.read.key).available == 100);
}

BOOST_FIXTURE_TEST_CASE(history_prints_tables_lines_and_pages, server_fixture) {
  auto t = create_team(0);
  for (auto amount : {"10", "20", "-5"})
    ctl_ok({"credits", "add", "--team", t, "--amount", amount});
  auto table = ctl({"credits", "history", "--team", t});
  BOOST_REQUIRE_MESSAGE(table.exit_code == 0, table.err);
  auto rows = lines_of(table.out);
  BOOST_REQUIRE_EQUAL(rows.size(), 4u);
  BOOST_TEST(rows[0].rfind("ID", 0) == 0u, rows[0]);
  BOOST_TEST(rows[1].find(" grant ") != std::string::npos, rows[1]);
  BOOST_TEST(rows[1].find("-5") != std::string::npos, rows[1]);

  auto jsonl = ctl({"credits", "history", "--team", t, "--format", "jsonl"});
  BOOST_REQUIRE_MESSAGE(jsonl.exit_code == 0, jsonl.err);
  auto lines = lines_of(jsonl.out);
  BOOST_REQUIRE_EQUAL(lines.size(), 3u);
  BOOST_TEST(is(boost::json::parse(lines[2]), "grant", 10, 10, 0), lines[2]);

  auto first = ctl_ok({"credits", "history", "--team", t, "--format", "json", "--limit", "2"});
  BOOST_TEST(*json_bool(first, "has_more"));
  auto last_id = json_str(first.at("data").as_array().back(), "id");
  auto paged = ctl({"credits", "history", "--team", t, "--limit", "2"});
  BOOST_TEST(lines_of(paged.out).back() == "more: --after " + last_id, paged.out);
  auto second = ctl_ok({"credits", "history", "--team", t, "--format", "json", "--after", last_id});
  BOOST_TEST(!*json_bool(second, "has_more"));
  BOOST_REQUIRE_EQUAL(second.at("data").as_array().size(), 1u);
  BOOST_TEST(is(second.at("data").as_array()[0], "grant", 10, 10, 0));
}

BOOST_FIXTURE_TEST_CASE(credits_commands_refuse_what_they_cannot_do, server_fixture) {
  auto t = create_team_with_keys(100);
  auto unknown_team = ctl({"credits", "history", "--team", "team_01J" + std::string(23, '0')});
  BOOST_TEST(unknown_team.exit_code == 1, unknown_team.err);
  BOOST_TEST(json_str(unknown_team.err_json, "error.code") == "resource_not_found", unknown_team.err);
  auto unknown_job = ctl({"credits", "refund", "--job", "img_01J" + std::string(23, '0')});
  BOOST_TEST(unknown_job.exit_code == 1, unknown_job.err);
  BOOST_TEST(json_str(unknown_job.err_json, "error.code") == "resource_not_found", unknown_job.err);
  auto long_reason = ctl({"credits", "add", "--team", t.id, "--amount", "1", "--reason", std::string(501, 'x')});
  BOOST_TEST(long_reason.exit_code == 1, long_reason.err);
  BOOST_TEST(json_str(long_reason.err_json, "error.code") == "invalid_parameter", long_reason.err);
  auto bad_cursor = ctl({"credits", "history", "--team", t.id, "--after", "img_01J" + std::string(23, '0')});
  BOOST_TEST(bad_cursor.exit_code == 1, bad_cursor.err);
  BOOST_TEST(history(*this, t.id).size() == 1u); // the opening grant only

  for (std::vector<std::string> args :
       {std::vector<std::string>{"credits", "history", "--team", t.id, "--format", "csv"},
        std::vector<std::string>{"credits", "history"}, std::vector<std::string>{"credits", "refund"},
        std::vector<std::string>{"credits", "refund", "--job", "img_x", "--amount", "3"}}) {
    auto refused = ctl(args);
    BOOST_TEST(refused.exit_code == 2, refused.err);
    BOOST_TEST(refused.out.empty(), refused.out);
  }
}

BOOST_AUTO_TEST_SUITE_END()
