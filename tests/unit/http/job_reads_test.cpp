#include "http/handlers/handlers.hpp"

#include <boost/test/unit_test.hpp>

#include <memory>
#include <string>

#include "core/ids.hpp"
#include "http/stages/stages.hpp"
#include "persistence/job_rows.hpp"
#include "services_fixture.hpp"

BOOST_AUTO_TEST_SUITE(http_job_reads)

// The job read handlers (job_reads.cpp) over a real runtime whose store holds
// jobs written as the ledger writes them: the caller's team sees its own jobs
// and only those, ids of the wrong shape or kind are 404, lists check their
// parameters (services_fixture.hpp: no socket).

namespace {

using namespace svc::http;
using svc::schema::job_status;
namespace bhttp = boost::beast::http;

struct job_reads_fixture : svc::http::testing::services_fixture {
  // Stores a finished image of `team` and gives its id.
  std::string stored_image(const std::string& team, job_status status = job_status::succeeded) {
    svc::schema::job_record j;
    j.id = svc::core::make_id("img");
    j.team_id = team;
    j.prompt = "a lighthouse";
    j.width = j.height = 256;
    j.num_outputs = 1;
    j.seed = 7;
    j.steps = 4;
    j.credits = 40;
    j.api_version = "2025-01-01";
    j.status = status;
    j.created_at = clock->now();
    svc::persistence::write_batch batch;
    svc::persistence::put_job(svc->tables(), batch, j);
    caf::scoped_actor self{*sys};
    bool committed = false;
    self->request(svc->actors().store, caf::infinite, svc::actors::commit_atom::value, std::move(batch))
      .receive([&](bool ok) { committed = ok; }, [](caf::error&) {});
    BOOST_REQUIRE(committed);
    return j.id;
  }

};

} // namespace

BOOST_FIXTURE_TEST_SUITE(job_read_handlers, job_reads_fixture)

BOOST_AUTO_TEST_CASE(a_team_reads_its_own_image) {
  auto id = stored_image("team_a");
  get_image(team_request("team_a", bhttp::verb::get, "/v1/images/" + id, {}, id));
  BOOST_REQUIRE(answered());
  BOOST_TEST(status_is(200), answer());
  BOOST_TEST(answer().find("\"id\":\"" + id + "\"") != std::string::npos, answer());
  BOOST_TEST(answer().find("\"status\":\"succeeded\"") != std::string::npos, answer());
}

BOOST_AUTO_TEST_CASE(another_teams_image_an_unknown_id_and_a_video_id_are_404) {
  auto id = stored_image("team_a");
  get_image(team_request("team_b", bhttp::verb::get, "/v1/images/" + id, {}, id));
  auto unknown = svc::core::make_id("img");
  get_image(team_request("team_a", bhttp::verb::get, "/v1/images/" + unknown, {}, unknown));
  get_video(team_request("team_a", bhttp::verb::get, "/v1/videos/" + id, {}, id));
  get_image(team_request("team_a", bhttp::verb::get, "/v1/images/img_%2F..", {}, "img_/.."));
  BOOST_REQUIRE(answered(4));
  for (std::size_t i = 0; i < 4; ++i) {
    BOOST_TEST(status_is(404, i), answer(i));
    BOOST_TEST(answer(i).find("\"resource_not_found\"") != std::string::npos, answer(i));
  }
}

BOOST_AUTO_TEST_CASE(a_list_holds_the_teams_jobs_of_the_asked_status_only) {
  auto done = stored_image("team_a");
  auto failed = stored_image("team_a", job_status::failed);
  auto others = stored_image("team_b");
  list_images(team_request("team_a", bhttp::verb::get, "/v1/images?status=failed"));
  list_images(team_request("team_a", bhttp::verb::get, "/v1/images"));
  BOOST_REQUIRE(answered(2));
  BOOST_TEST(status_is(200, 0), answer(0));
  BOOST_TEST(answer(0).find(failed) != std::string::npos, answer(0));
  BOOST_TEST(answer(0).find(done) == std::string::npos, answer(0));
  BOOST_TEST(answer(1).find(failed) != std::string::npos, answer(1));
  BOOST_TEST(answer(1).find(done) != std::string::npos, answer(1));
  BOOST_TEST(answer(1).find(others) == std::string::npos, answer(1));
}

BOOST_AUTO_TEST_CASE(a_list_refuses_an_unknown_status_and_a_cursor_of_another_kind) {
  list_images(team_request("team_a", bhttp::verb::get, "/v1/images?status=finished"));
  list_images(team_request("team_a", bhttp::verb::get, "/v1/images?starting_after=" + svc::core::make_id("vid")));
  BOOST_REQUIRE(answered(2));
  BOOST_TEST(status_is(400, 0), answer(0));
  BOOST_TEST(answer(0).find("\"param\":\"status\"") != std::string::npos, answer(0));
  BOOST_TEST(status_is(400, 1), answer(1));
  BOOST_TEST(answer(1).find("\"param\":\"starting_after\"") != std::string::npos, answer(1));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
