#include "actors/team_directory.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "actors/ledger.hpp"
#include "team_directory_fixture.hpp"

BOOST_AUTO_TEST_SUITE(actors_team_directory)

namespace {

using namespace std::chrono_literals;
using namespace svc::actors;
using svc::core::to_unix_ms;
using namespace svc::schema;

struct team_fixture : svc::test::team_directory_fixture {
  team_record stored() {
    auto t = tables.teams.get(team_id);
    BOOST_REQUIRE(t.has_value());
    return *t;
  }

  // The refusal of an update: its code and the parameter named.
  std::pair<error_code, std::string> refusal(const team_update& u, const std::string& id) {
    auto r = ask<team_record>(teams, patch_atom::value, id, u);
    BOOST_REQUIRE(r.answered);
    BOOST_REQUIRE(!r.value);
    auto e = svc::actors::to_api_error(r.error);
    return {e.code, e.param};
  }
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(team_directory_suite, team_fixture)

BOOST_AUTO_TEST_CASE(an_update_changes_only_the_fields_it_gives_and_is_stored_before_the_answer) {
  team_update u;
  u.name = "Acme Studios";
  u.default_api_version = "2026-01-15";
  auto r = ask<team_record>(teams, patch_atom::value, team_id, u);
  BOOST_REQUIRE_MESSAGE(r.value, sys.render(r.error));
  BOOST_TEST(r.value->name == "Acme Studios");
  BOOST_TEST(r.value->owner_email == "ops@example.com");
  auto t = stored();
  BOOST_TEST(t.name == "Acme Studios");
  BOOST_TEST(t.default_api_version == "2026-01-15");
  BOOST_TEST(t.owner_email == "ops@example.com");
  BOOST_TEST(t.balance_low_threshold == 0);

  team_update more;
  more.owner_email = "billing@acme.test";
  more.balance_low_threshold = 250;
  BOOST_REQUIRE(ask<team_record>(teams, patch_atom::value, team_id, more).value);
  t = stored();
  BOOST_TEST(t.name == "Acme Studios");
  BOOST_TEST(t.owner_email == "billing@acme.test");
  BOOST_TEST(t.balance_low_threshold == 250);
}

BOOST_AUTO_TEST_CASE(an_update_with_one_bad_field_changes_nothing) {
  auto before = stored();
  std::vector<std::pair<team_update, std::string>> cases;
  auto with = [&](auto field, auto value, std::string param) {
    team_update u;
    u.name = "A valid new name"; // would change, if the update were not refused as a whole
    u.*field = value;
    cases.emplace_back(u, std::move(param));
  };
  with(&team_update::name, std::string{}, "name");
  with(&team_update::name, std::string(201, 'n'), "name");
  with(&team_update::owner_email, std::string{"no-at-sign"}, "owner_email");
  with(&team_update::owner_email, std::string{"@example.com"}, "owner_email");
  with(&team_update::owner_email, std::string{"ops@"}, "owner_email");
  with(&team_update::default_api_version, std::string{"2020-01-01"}, "default_api_version");
  with(&team_update::balance_low_threshold, int64_t{-1}, "balance_low_threshold");
  with(&team_update::balance_low_threshold, svc::actors::max_credits + 1, "balance_low_threshold");
  for (auto& [u, param] : cases) {
    auto [code, named] = refusal(u, team_id);
    BOOST_TEST((code == error_code::invalid_parameter), param);
    BOOST_TEST(named == param);
  }
  auto after = stored();
  BOOST_TEST(after.name == before.name);
  BOOST_TEST(after.owner_email == before.owner_email);
  BOOST_TEST(after.default_api_version == before.default_api_version);
  BOOST_TEST(after.balance_low_threshold == before.balance_low_threshold);
  BOOST_TEST((refusal(team_update{}, "team_unknown").first == error_code::resource_not_found));
}

BOOST_AUTO_TEST_CASE(disable_is_stored_with_its_time_and_reason_and_enable_clears_it) {
  auto before = to_unix_ms(clock->now());
  auto r = ask<team_record>(teams, disable_atom::value, team_id, std::string{"unpaid invoice"});
  BOOST_REQUIRE_MESSAGE(r.value, sys.render(r.error));
  BOOST_REQUIRE(r.value->disabled_at.has_value());
  auto disabled_at = *r.value->disabled_at;
  BOOST_TEST(to_unix_ms(disabled_at) >= before);
  BOOST_TEST(to_unix_ms(disabled_at) <= to_unix_ms(clock->now()));
  auto t = stored();
  BOOST_REQUIRE(t.disabled_at.has_value());
  BOOST_TEST(to_unix_ms(*t.disabled_at) == to_unix_ms(disabled_at));
  BOOST_TEST(t.disabled_reason == "unpaid invoice");

  // A second disable keeps the first one's time and reason.
  advance(1min);
  auto again = ask<team_record>(teams, disable_atom::value, team_id, std::string{"another reason"});
  BOOST_REQUIRE(again.value);
  BOOST_TEST(to_unix_ms(*again.value->disabled_at) == to_unix_ms(disabled_at));
  BOOST_TEST(stored().disabled_reason == "unpaid invoice");

  auto enabled = ask<team_record>(teams, enable_atom::value, team_id);
  BOOST_REQUIRE(enabled.value);
  BOOST_TEST(!enabled.value->disabled_at.has_value());
  t = stored();
  BOOST_TEST(!t.disabled_at.has_value());
  BOOST_TEST(t.disabled_reason.empty());
  BOOST_TEST(!ask<team_record>(teams, enable_atom::value, team_id).value->disabled_at.has_value());
}

BOOST_AUTO_TEST_CASE(a_disable_with_a_reason_too_long_or_of_no_team_changes_nothing) {
  auto too_long = std::string(svc::schema::max_disabled_reason + 1, 'r');
  auto r = ask<team_record>(teams, disable_atom::value, team_id, too_long);
  BOOST_REQUIRE(!r.value);
  auto e = svc::actors::to_api_error(r.error);
  BOOST_TEST((e.code == error_code::invalid_parameter));
  BOOST_TEST(e.param == "reason");
  BOOST_TEST(!stored().disabled_at.has_value());
  auto none = ask<team_record>(teams, disable_atom::value, std::string{"team_unknown"}, std::string{});
  BOOST_REQUIRE(!none.value);
  BOOST_TEST((svc::actors::to_api_error(none.error).code == error_code::resource_not_found));
  auto none_enabled = ask<team_record>(teams, enable_atom::value, std::string{"team_unknown"});
  BOOST_TEST((svc::actors::to_api_error(none_enabled.error).code == error_code::resource_not_found));
}

BOOST_AUTO_TEST_CASE(an_update_keeps_a_disable) {
  BOOST_REQUIRE(ask<team_record>(teams, disable_atom::value, team_id, std::string{"abuse"}).value);
  team_update u;
  u.balance_low_threshold = 10;
  BOOST_REQUIRE(ask<team_record>(teams, patch_atom::value, team_id, u).value);
  auto t = stored();
  BOOST_TEST(t.disabled_at.has_value());
  BOOST_TEST(t.disabled_reason == "abuse");
  BOOST_TEST(t.balance_low_threshold == 10);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
