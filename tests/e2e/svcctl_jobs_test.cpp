// svcctl job show / job cancel: any team's job by id, with its team; a cancel
// refunds the team's hold as the team's own cancel does; unknown ids are 404.
#include <boost/test/unit_test.hpp>

#include <string>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_svcctl_jobs)

using namespace svc::e2e;

namespace {

struct slow_single_worker : server_fixture {
  slow_single_worker() : server_fixture({"--render-delay", "5s", "--workers", "1"}) {}
};

} // namespace

BOOST_FIXTURE_TEST_CASE(job_show_and_cancel_refund_the_team, slow_single_worker) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto created = create_image_ok(c, t.write.key, image_body());
  auto id = json_str(created, "id");
  BOOST_REQUIRE(json_str(wait_status(c, t.read.key, id, "processing"), "status") == "processing");

  auto shown = ctl_ok({"job", "show", "--job", id});
  BOOST_TEST(json_str(shown, "id") == id, shown);
  BOOST_TEST(json_str(shown, "team_id") == t.id, shown);
  BOOST_TEST(json_str(shown, "status") == "processing", shown);

  auto cancelled = ctl_ok({"job", "cancel", "--job", id});
  BOOST_TEST(json_str(cancelled, "status") == "cancelled", cancelled);
  BOOST_TEST(json_str(cancelled, "cost.status") == "refunded", cancelled);
  auto after = get_balance(c, t.read.key);
  BOOST_TEST(after.available == 1000);
  BOOST_TEST(after.held == 0);
  BOOST_TEST(json_str(get_image(c, t.read.key, id), "status") == "cancelled");

  auto again = ctl({"job", "cancel", "--job", id});
  BOOST_TEST(again.exit_code == 1, again.err);
  BOOST_TEST(!json_str(again.err_json, "error.code").empty(), again.err);
  BOOST_TEST(get_balance(c, t.read.key).available == 1000, "a refused cancel refunds nothing twice");
}

BOOST_FIXTURE_TEST_CASE(unknown_jobs_are_404, server_fixture) {
  for (std::string id : {"img_01J" + std::string(23, '0'), "vid_01J" + std::string(23, '0'), std::string{"bogus"}}) {
    check_not_found(ctl({"job", "show", "--job", id}), "show " + id);
    check_not_found(ctl({"job", "cancel", "--job", id}), "cancel " + id);
  }
}

BOOST_AUTO_TEST_SUITE_END()
