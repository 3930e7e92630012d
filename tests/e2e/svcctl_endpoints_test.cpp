// svcctl endpoint list / disable / enable: any team's webhook endpoints; a
// switch is the team's own `is_active` (stored, seen by the team's API), and
// unknown ids are 404.
#include <boost/test/unit_test.hpp>

#include <string>

#include "support/json_util.hpp"
#include "support/server_fixture.hpp"
#include "support/webhook_receiver_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_svcctl_endpoints)

using namespace svc::e2e;

namespace {

// Receivers on loopback are allowed; nothing is delivered in these cases.
struct private_receivers : server_fixture {
  private_receivers() : server_fixture({"--webhook-allow-private"}) {}
};

} // namespace

BOOST_FIXTURE_TEST_CASE(endpoints_are_listed_disabled_and_enabled, private_receivers) {
  auto t = create_team_with_keys();
  auto c = api();
  auto url = "https://127.0.0.1:" + std::to_string(closed_local_port()) + "/hook";
  auto first = json_str(create_endpoint_ok(c, t.full.key, url), "id");
  auto second = json_str(create_endpoint_ok(c, t.full.key, url, {"image.completed"}), "id");

  auto list = ctl_ok({"endpoint", "list", "--team", t.id});
  BOOST_TEST(json_size(list, "data") == 2, list);
  BOOST_TEST(json_str(list, "data.0.id") == second, "newest first: " << list);
  BOOST_TEST(json_size(ctl_ok({"endpoint", "list", "--team", t.id, "--limit", "1"}), "data") == 1);

  auto disabled = ctl_ok({"endpoint", "disable", "--endpoint", first});
  BOOST_TEST(json_bool(disabled, "is_active") == false, disabled);
  BOOST_TEST(json_bool(get_endpoint(c, t.full.key, first), "is_active") == false, "the team sees it disabled");
  BOOST_TEST(json_bool(get_endpoint(c, t.full.key, second), "is_active") == true, "only that endpoint");
  auto enabled = ctl_ok({"endpoint", "enable", "--endpoint", first});
  BOOST_TEST(json_bool(enabled, "is_active") == true, enabled);
  BOOST_TEST(json_bool(get_endpoint(c, t.full.key, first), "is_active") == true);
}

BOOST_FIXTURE_TEST_CASE(unknown_endpoints_and_teams_are_404, server_fixture) {
  for (std::string id : {"we_01J" + std::string(23, '0'), std::string{"bogus"}})
    for (std::string action : {"disable", "enable"})
      check_not_found(ctl({"endpoint", action, "--endpoint", id}), action + " " + id);
  check_not_found(ctl({"endpoint", "list", "--team", "team_01J" + std::string(23, '0')}), "list, unknown team");
}

BOOST_AUTO_TEST_SUITE_END()
