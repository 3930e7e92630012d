// svcctl team list / team show / team update / team disable / team enable /
// key list: every team with its balance, one team, changes validated like a
// create (nothing changed on a bad value), a disable shown with its time and
// reason, a team's keys without plaintext; unknown ids are 404 (exit 1).
#include <boost/test/unit_test.hpp>

#include <boost/json/serialize.hpp>

#include <cstdlib>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "support/json_util.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_svcctl_teams)

using namespace svc::e2e;

namespace {

const std::string unknown_team = "team_01J" + std::string(23, '0');

std::set<std::string> ids_of(const boost::json::value& list) {
  auto ids = data_strings(list);
  return {ids.begin(), ids.end()};
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(svcctl_teams, server_fixture)

BOOST_AUTO_TEST_CASE(team_list_pages_every_team_with_its_balance) {
  auto a = create_team(111), b = create_team(222), c = create_team(333);
  auto all = ctl_ok({"team", "list"});
  BOOST_TEST(json_str(all, "object") == "list", all);
  BOOST_TEST((ids_of(all) == std::set<std::string>{a, b, c}), all);
  for (long i = 0; i < 3; ++i) {
    auto at = "data." + std::to_string(i);
    auto expected = json_str(all, at + ".id") == a ? 111 : json_str(all, at + ".id") == b ? 222 : 333;
    BOOST_TEST(json_int(all, at + ".balance.available") == expected, all);
  }
  auto first = ctl_ok({"team", "list", "--limit", "2"});
  BOOST_TEST(json_size(first, "data") == 2);
  BOOST_TEST(json_bool(first, "has_more") == true);
  auto rest = ctl_ok({"team", "list", "--limit", "2", "--after", json_str(first, "data.1.id")});
  BOOST_TEST(json_size(rest, "data") == 1);
  BOOST_TEST(json_bool(rest, "has_more") == false);
  auto bad_limit = ctl({"team", "list", "--limit", "0"});
  BOOST_TEST(bad_limit.exit_code == 1, bad_limit.err);
  BOOST_TEST(json_str(bad_limit.err_json, "error.code") == "invalid_parameter", bad_limit.err);
}

BOOST_AUTO_TEST_CASE(team_show_has_the_balance_and_unknown_teams_are_404) {
  auto id = create_team(500);
  ctl_ok({"credits", "add", "--team", id, "--amount", "25"});
  auto team = ctl_ok({"team", "show", "--team", id});
  BOOST_TEST(json_str(team, "id") == id, team);
  BOOST_TEST(json_str(team, "object") == "team", team);
  BOOST_TEST(json_int(team, "balance.available") == 525, team);
  for (const std::string& bad : {unknown_team, std::string{"bogus"}}) {
    auto r = ctl({"team", "show", "--team", bad});
    BOOST_TEST(r.exit_code == 1, bad << ": " << r.err);
    BOOST_TEST(json_str(r.err_json, "error.code") == "resource_not_found", r.err);
  }
}

BOOST_AUTO_TEST_CASE(team_update_changes_the_given_fields_and_a_bad_value_changes_nothing) {
  auto id = create_team(100);
  auto updated = ctl_ok({"team", "update", "--team", id, "--name", "Renamed", "--balance-low-threshold", "40",
                         "--default-api-version", "2026-01-15"});
  BOOST_TEST(json_str(updated, "name") == "Renamed", updated);
  BOOST_TEST(json_int(updated, "balance_low_threshold") == 40, updated);
  BOOST_TEST(json_str(updated, "default_api_version") == "2026-01-15", updated);
  BOOST_TEST(json_int(updated, "balance.available") == 100, updated);
  BOOST_TEST(json_str(ctl_ok({"team", "update", "--team", id, "--owner-email", "billing@example.com"}), "owner_email")
             == "billing@example.com");

  // The valid --name is not applied either when another value is refused.
  for (auto [option, value, param] :
       {std::tuple{"--owner-email", "not-an-address", "owner_email"},
        {"--default-api-version", "2020-01-01", "default_api_version"},
        {"--balance-low-threshold", "-5", "balance_low_threshold"}}) {
    auto r = ctl({"team", "update", "--team", id, "--name", "Never applied", option, value});
    BOOST_TEST(r.exit_code == 1, option << ": " << r.err);
    BOOST_TEST(json_str(r.err_json, "error.code") == "invalid_parameter", r.err);
    BOOST_TEST(json_str(r.err_json, "error.param") == param, r.err);
  }
  auto empty_name = ctl({"team", "update", "--team", id, "--name", ""});
  BOOST_TEST(empty_name.exit_code == 1, empty_name.err);
  BOOST_TEST(json_str(empty_name.err_json, "error.param") == "name", empty_name.err);
  auto team = ctl_ok({"team", "show", "--team", id});
  BOOST_TEST(json_str(team, "name") == "Renamed", team);
  BOOST_TEST(json_str(team, "owner_email") == "billing@example.com", team);
  BOOST_TEST(json_int(team, "balance_low_threshold") == 40, team);
  BOOST_TEST(json_str(team, "default_api_version") == "2026-01-15", team);

  for (const std::vector<std::string>& usage : {std::vector<std::string>{"team", "update", "--team", id},
                                                {"team", "update", "--name", "No team"},
                                                {"team", "update", "--team", id, "--balance-low-threshold", "many"},
                                                {"team", "update", "--team", id, "--credits", "5"}}) {
    auto r = ctl(usage);
    BOOST_TEST(r.exit_code == 2, usage.back() << ": " << r.err);
  }
  auto unknown = ctl({"team", "update", "--team", unknown_team, "--name", "Ghost"});
  BOOST_TEST(unknown.exit_code == 1, unknown.err);
  BOOST_TEST(json_str(unknown.err_json, "error.code") == "resource_not_found", unknown.err);
}

BOOST_AUTO_TEST_CASE(team_disable_and_enable_show_in_team_show_and_team_list) {
  auto id = create_team(100);
  auto other = create_team(100);
  auto disabled = ctl_ok({"team", "disable", "--team", id, "--reason", "unpaid invoice"});
  BOOST_TEST(json_bool(disabled, "disabled") == true, disabled);
  BOOST_TEST(json_str(disabled, "disabled_reason") == "unpaid invoice", disabled);
  auto at = json_str(disabled, "disabled_at");
  BOOST_TEST(parse_iso8601_ms(at) > 0, disabled);
  BOOST_TEST(std::abs(parse_iso8601_ms(at) - unix_now() * 1000) < 60'000, disabled);

  auto shown = ctl_ok({"team", "show", "--team", id});
  BOOST_TEST(json_bool(shown, "disabled") == true, shown);
  BOOST_TEST(json_str(shown, "disabled_at") == at, shown);
  auto listed = ctl_ok({"team", "list"});
  for (long i = 0; i < json_size(listed, "data"); ++i) {
    auto row = "data." + std::to_string(i);
    BOOST_TEST(json_bool(listed, row + ".disabled") == (json_str(listed, row + ".id") == id), listed);
  }

  // Disabling again keeps the first disable: when access ended, and why.
  auto again = ctl_ok({"team", "disable", "--team", id});
  BOOST_TEST(json_str(again, "disabled_at") == at, again);
  BOOST_TEST(json_str(again, "disabled_reason") == "unpaid invoice", again);

  auto enabled = ctl_ok({"team", "enable", "--team", id});
  BOOST_TEST(json_bool(enabled, "disabled") == false, enabled);
  BOOST_TEST(enabled.as_object().at("disabled_at").is_null(), enabled);
  BOOST_TEST(enabled.as_object().at("disabled_reason").is_null(), enabled);
  BOOST_TEST(json_bool(ctl_ok({"team", "show", "--team", id}), "disabled") == false);
  BOOST_TEST(json_bool(ctl_ok({"team", "enable", "--team", other}), "disabled") == false);

  auto too_long = ctl({"team", "disable", "--team", id, "--reason", std::string(501, 'r')});
  BOOST_TEST(too_long.exit_code == 1, too_long.err);
  BOOST_TEST(json_str(too_long.err_json, "error.param") == "reason", too_long.err);
  BOOST_TEST(json_bool(ctl_ok({"team", "show", "--team", id}), "disabled") == false);
  for (auto verb : {"disable", "enable"}) {
    auto unknown = ctl({"team", verb, "--team", unknown_team});
    BOOST_TEST(unknown.exit_code == 1, verb << ": " << unknown.err);
    BOOST_TEST(json_str(unknown.err_json, "error.code") == "resource_not_found", unknown.err);
    BOOST_TEST(ctl({"team", verb}).exit_code == 2, verb);
  }
}

BOOST_AUTO_TEST_CASE(key_list_shows_a_teams_keys_without_plaintext) {
  auto t = create_team_with_keys();
  create_team_with_keys(); // another team, whose keys must not be listed
  ctl_ok({"key", "revoke", "--key", t.write.id});
  auto keys = ctl_ok({"key", "list", "--team", t.id});
  BOOST_TEST((ids_of(keys) == std::set<std::string>{t.read.id, t.write.id, t.full.id}), keys);
  BOOST_TEST(keys.as_object().at("data").as_array().size() == 3u);
  for (auto& k : keys.as_object().at("data").as_array())
    BOOST_TEST(boost::json::serialize(k).find(t.full.key) == std::string::npos, "plaintext listed: " << k);
  BOOST_TEST(json_size(ctl_ok({"key", "list", "--team", t.id, "--limit", "1"}), "data") == 1);
  auto unknown = ctl({"key", "list", "--team", unknown_team});
  BOOST_TEST(unknown.exit_code == 1, unknown.err);
  BOOST_TEST(json_str(unknown.err_json, "error.code") == "resource_not_found", unknown.err);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
