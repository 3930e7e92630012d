#include "http/admin/admin_handlers.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

#include <boost/json.hpp>

#include "http/stages/stages.hpp"
#include "services_fixture.hpp"

BOOST_AUTO_TEST_SUITE(http_admin_team_handlers)

// The operator's team and credit handlers (admin/teams.cpp, admin/credits.cpp,
// admin/team_reads.cpp) over a real runtime: what svcctl's `team` and
// `credits` commands ask, without a socket (services_fixture.hpp).

namespace {

using namespace svc::http;
namespace bhttp = boost::beast::http;
namespace json = boost::json;

struct admin_fixture : svc::http::testing::services_fixture {
  // The operator's request `method target` with `body`; `id` is the path's `{id}`.
  context_ptr admin(bhttp::verb method, std::string target, std::string body = {}, const std::string& id = {}) {
    return team_request({}, method, std::move(target), std::move(body), id);
  }

  // Creates a team with `credits` through the handler and gives its id.
  std::string created_team(int64_t credits) {
    auto n = answers->size();
    create_team(admin(bhttp::verb::post, "/admin/teams",
                              R"({"name":"Ops","owner_email":"ops@example.test","credits":)" + std::to_string(credits)
                                + "}"));
    BOOST_REQUIRE(answered(n + 1));
    BOOST_REQUIRE_MESSAGE(status_is(201, n), answer(n));
    return json::value_to<std::string>(body_of(n).at("id"));
  }
  int64_t available(const std::string& team) {
    auto b = svc->tables().balances.get(team);
    BOOST_REQUIRE(b.has_value());
    return b->available;
  }
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(admin_team_handlers, admin_fixture)

BOOST_AUTO_TEST_CASE(a_created_team_holds_its_opening_credits) {
  auto team = created_team(300);
  BOOST_TEST(available(team) == 300);
  show_team(admin(bhttp::verb::get, "/admin/teams/" + team, {}, team));
  BOOST_REQUIRE(answered(2));
  BOOST_TEST(status_is(200, 1), answer(1));
  BOOST_TEST(body_of(1).at("balance").at("available") == 300);
}

BOOST_AUTO_TEST_CASE(a_team_without_a_name_or_with_negative_credits_is_not_created) {
  create_team(admin(bhttp::verb::post, "/admin/teams", R"({"owner_email":"ops@example.test"})"));
  create_team(admin(bhttp::verb::post, "/admin/teams", R"({"name":"Ops","owner_email":"o@e.test","credits":-5})"));
  create_team(admin(bhttp::verb::post, "/admin/teams", R"({"name":"Ops","owner_email":"o@e.test","plan":"x"})"));
  BOOST_REQUIRE(answered(3));
  BOOST_TEST(status_is(400, 0), answer(0));
  BOOST_TEST(answer(0).find("\"param\":\"name\"") != std::string::npos, answer(0));
  BOOST_TEST(status_is(400, 1), answer(1));
  BOOST_TEST(answer(1).find("\"param\":\"credits\"") != std::string::npos, answer(1));
  BOOST_TEST(status_is(400, 2), answer(2));
  BOOST_TEST(answer(2).find("\"param\":\"plan\"") != std::string::npos, answer(2));
  list_teams(admin(bhttp::verb::get, "/admin/teams"));
  BOOST_REQUIRE(answered(4));
  BOOST_TEST(body_of(3).at("data").as_array().empty(), answer(3));
}

BOOST_AUTO_TEST_CASE(credits_added_and_removed_show_in_the_balance_and_the_history_newest_first) {
  auto team = created_team(100);
  add_credits(admin(bhttp::verb::post, "/admin/teams/" + team + "/credits",
                            R"({"amount":50,"reason":"goodwill"})", team));
  BOOST_REQUIRE(answered(2));
  BOOST_TEST(status_is(200, 1), answer(1));
  BOOST_TEST(body_of(1).at("available") == 150);
  add_credits(admin(bhttp::verb::post, "/admin/teams/" + team + "/credits", R"({"amount":-30})", team));
  BOOST_REQUIRE(answered(3));
  BOOST_TEST(body_of(2).at("available") == 120);
  BOOST_TEST(available(team) == 120);
  list_team_credits(admin(bhttp::verb::get, "/admin/teams/" + team + "/credits", {}, team));
  BOOST_REQUIRE(answered(4));
  auto entries = body_of(3).at("data").as_array();
  BOOST_REQUIRE(entries.size() >= 2u);
  BOOST_TEST(entries[0].at("amount") == -30, answer(3));
  BOOST_TEST(entries[1].at("amount") == 50, answer(3));
  BOOST_TEST(entries[1].at("reason") == "goodwill", answer(3));
}

BOOST_AUTO_TEST_CASE(a_credit_without_an_amount_or_for_an_unknown_team_changes_nothing) {
  auto team = created_team(100);
  add_credits(admin(bhttp::verb::post, "/admin/teams/" + team + "/credits", R"({"reason":"none"})", team));
  add_credits(admin(bhttp::verb::post, "/admin/teams/" + team + "/credits", R"({"amount":1.5})", team));
  add_credits(admin(bhttp::verb::post, "/admin/teams/team_nobody/credits", R"({"amount":5})", "team_nobody"));
  list_team_credits(admin(bhttp::verb::get, "/admin/teams/team_nobody/credits", {}, "team_nobody"));
  BOOST_REQUIRE(answered(5));
  BOOST_TEST(status_is(400, 1), answer(1));
  BOOST_TEST(answer(1).find("\"param\":\"amount\"") != std::string::npos, answer(1));
  BOOST_TEST(status_is(400, 2), answer(2));
  BOOST_TEST(status_is(404, 3), answer(3));
  BOOST_TEST(status_is(404, 4), answer(4));
  BOOST_TEST(available(team) == 100);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
