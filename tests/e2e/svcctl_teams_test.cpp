// svcctl team list / team show / key list: every team with its balance, one
// team, a team's keys without plaintext; unknown ids are 404 (exit 1).
#define BOOST_TEST_MODULE e2e_svcctl_teams
#include <boost/test/unit_test.hpp>

#include <boost/json/serialize.hpp>

#include <set>
#include <string>

#include "support/json_util.hpp"
#include "support/server_fixture.hpp"

using namespace svc::e2e;

namespace {

const std::string unknown_team = "team_01J" + std::string(23, '0');

std::set<std::string> ids_of(const boost::json::value& list) {
  std::set<std::string> ids;
  for (long i = 0; i < json_size(list, "data"); ++i)
    ids.insert(json_str(list, "data." + std::to_string(i) + ".id"));
  return ids;
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
