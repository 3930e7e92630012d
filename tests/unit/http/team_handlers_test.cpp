#include "http/handlers/handlers.hpp"

#include <boost/test/unit_test.hpp>

#include <memory>
#include <string>

#include "http/stages/stages.hpp"
#include "schema/pricing.hpp"
#include "services_fixture.hpp"

BOOST_AUTO_TEST_SUITE(http_team_handlers)

// The team's own handlers (team.cpp, balance.cpp, pricing.cpp, loras.cpp)
// against a real runtime over an empty store: a team made through the team
// directory, requests that never touch a socket (services_fixture.hpp).

namespace {

using namespace svc::http;
namespace bhttp = boost::beast::http;

struct team_fixture : svc::http::testing::services_fixture {
  std::shared_ptr<const svc::schema::team_record> team;

  team_fixture() {
    caf::scoped_actor self{*sys};
    self->request(svc->actors().teams, caf::infinite, svc::actors::create_atom::value,
                  svc::actors::new_team{"Handlers", "owner@example.test", 500})
      .receive([&](svc::schema::team_record& t) { team = std::make_shared<svc::schema::team_record>(t); },
               [](caf::error& e) { BOOST_FAIL("the team was not created: " + caf::to_string(e)); });
  }

  // The team's own request, its whole record attached as the auth stage attaches it.
  context_ptr own(bhttp::verb method, std::string target, std::string body = {}) {
    auto ctx = team_request(team->id, method, std::move(target), std::move(body));
    ctx->team = team;
    return ctx;
  }

  int64_t stored_threshold() {
    auto stored = svc->tables().teams.get(team->id);
    BOOST_REQUIRE(stored.has_value());
    return stored->balance_low_threshold;
  }
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(team_handlers, team_fixture)

BOOST_AUTO_TEST_CASE(get_team_answers_the_callers_team) {
  get_team(own(bhttp::verb::get, "/v1/team"));
  BOOST_REQUIRE(answered());
  BOOST_TEST(status_is(200), answer());
  BOOST_TEST(answer().find("\"id\":\"" + team->id + "\"") != std::string::npos, answer());
  BOOST_TEST(answer().find("\"name\":\"Handlers\"") != std::string::npos, answer());
}

BOOST_AUTO_TEST_CASE(a_threshold_patch_is_stored_and_answered) {
  patch_team(own(bhttp::verb::patch, "/v1/team", R"({"balance_low_threshold":250})"));
  BOOST_REQUIRE(answered());
  BOOST_TEST(status_is(200), answer());
  BOOST_TEST(answer().find("\"balance_low_threshold\":250") != std::string::npos, answer());
  BOOST_TEST(stored_threshold() == 250);
}

BOOST_AUTO_TEST_CASE(a_patch_of_another_field_or_out_of_range_is_400_and_changes_nothing) {
  auto before = stored_threshold();
  patch_team(own(bhttp::verb::patch, "/v1/team", R"({"name":"Renamed"})"));
  patch_team(own(bhttp::verb::patch, "/v1/team", R"({"balance_low_threshold":-1})"));
  patch_team(own(bhttp::verb::patch, "/v1/team", R"({"balance_low_threshold":"250"})"));
  BOOST_REQUIRE(answered(3));
  for (std::size_t i = 0; i < 3; ++i)
    BOOST_TEST(status_is(400, i), answer(i));
  BOOST_TEST(answer(0).find("\"param\":\"name\"") != std::string::npos, answer(0));
  BOOST_TEST(answer(1).find("\"param\":\"balance_low_threshold\"") != std::string::npos, answer(1));
  BOOST_TEST(answer(2).find("\"param\":\"balance_low_threshold\"") != std::string::npos, answer(2));
  BOOST_TEST(stored_threshold() == before);
  auto stored = svc->tables().teams.get(team->id);
  BOOST_TEST(stored->name == "Handlers");
}

BOOST_AUTO_TEST_CASE(a_patch_that_changes_nothing_answers_the_team_as_it_is) {
  patch_team(own(bhttp::verb::patch, "/v1/team", "{}"));
  BOOST_REQUIRE(answered());
  BOOST_TEST(status_is(200), answer());
  BOOST_TEST(answer().find("\"id\":\"" + team->id + "\"") != std::string::npos, answer());
}

BOOST_AUTO_TEST_CASE(the_balance_shows_the_teams_credits_and_threshold) {
  get_balance(own(bhttp::verb::get, "/v1/balance"));
  BOOST_REQUIRE(answered());
  BOOST_TEST(status_is(200), answer());
  BOOST_TEST(answer().find(R"("object":"balance","available":500,"held":0,"balance_low_threshold":)")
               != std::string::npos,
             answer());
}

BOOST_AUTO_TEST_CASE(pricing_follows_the_applied_version) {
  auto ctx = own(bhttp::verb::get, "/v1/pricing");
  ctx->version = svc::schema::pricing_for("").api_version;
  get_pricing(ctx);
  BOOST_REQUIRE(answered());
  BOOST_TEST(status_is(200), answer());
  BOOST_TEST(answer().find("\"api_version\":\"" + ctx->version + "\"") != std::string::npos, answer());
}

BOOST_AUTO_TEST_CASE(lora_lists_refuse_a_bad_limit_cursor_or_parameter) {
  list_loras(own(bhttp::verb::get, "/v1/loras?limit=0"));
  list_loras(own(bhttp::verb::get, "/v1/loras?starting_after=img_1"));
  list_loras(own(bhttp::verb::get, "/v1/loras?colour=red"));
  list_loras(own(bhttp::verb::get, "/v1/loras?limit=1"));
  BOOST_REQUIRE(answered(4));
  BOOST_TEST(status_is(400, 0), answer(0));
  BOOST_TEST(answer(0).find("\"param\":\"limit\"") != std::string::npos, answer(0));
  BOOST_TEST(status_is(400, 1), answer(1));
  BOOST_TEST(answer(1).find("\"param\":\"starting_after\"") != std::string::npos, answer(1));
  BOOST_TEST(status_is(400, 2), answer(2));
  BOOST_TEST(answer(2).find("\"unknown_parameter\"") != std::string::npos, answer(2));
  BOOST_TEST(status_is(200, 3), answer(3));
  BOOST_TEST(answer(3).find("\"object\":\"list\"") != std::string::npos, answer(3));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
