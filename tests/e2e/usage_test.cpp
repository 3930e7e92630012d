// GET /v1/usage?start=&end=: charged credits and images per UTC day, every
// day of the range (zeros included) plus a total; only succeeded jobs count;
// malformed ranges are 400 naming the param.
#include <boost/test/unit_test.hpp>

#include <string>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/refused_queries.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_usage)

using namespace svc::e2e;

namespace {

// The row of `date` in a usage answer, or null.
boost::json::value day_row(const boost::json::value& usage, const std::string& date) {
  for (long i = 0; i < json_size(usage, "data"); ++i)
    if (json_str(usage, "data." + std::to_string(i) + ".date") == date)
      return *json_at(usage, "data." + std::to_string(i));
  return nullptr;
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(usage, server_fixture)

BOOST_AUTO_TEST_CASE(a_success_shows_in_todays_row_and_the_total) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto today = utc_date();
  auto empty = c.get("/v1/usage?start=" + today + "&end=" + today, with_key(t.read.key));
  BOOST_REQUIRE_MESSAGE(empty.status == 200, empty.summary());
  BOOST_TEST(json_int(empty.json(), "total.credits_charged") == 0);

  auto body = image_body("two of them");
  body["num_outputs"] = 2;
  auto done = wait_terminal(c, t.read.key, json_str(create_image_ok(c, t.write.key, body), "id"));
  BOOST_REQUIRE_MESSAGE(json_str(done, "status") == "succeeded", done);
  auto credits = *json_int(done, "cost.credits");
  // A refunded job adds nothing.
  auto rejected = create_image_ok(c, t.write.key, image_body("gore"));
  BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, json_str(rejected, "id")), "status") == "moderation_rejected");

  // The day is the completion's UTC date; around midnight that may be tomorrow.
  auto date = json_str(done, "completed_at").substr(0, 10);
  auto r = c.get("/v1/usage", with_key(t.read.key));
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  auto usage = r.json();
  BOOST_TEST(json_str(usage, "object") == "usage");
  BOOST_TEST(json_size(usage, "data") == 30, "the default range is 30 days");
  BOOST_TEST(json_str(usage, "end") == utc_date());
  auto row = day_row(usage, date);
  if (date == utc_date()) {
    BOOST_TEST(json_int(row, "credits_charged") == credits, usage);
    BOOST_TEST(json_int(row, "images") == 2, "images counts outputs");
    BOOST_TEST(json_int(row, "videos") == 0);
  }
  BOOST_TEST(json_int(usage, "total.credits_charged") == credits);
  BOOST_TEST(json_int(usage, "total.images") == 2);
  BOOST_TEST(json_int(usage, "total.videos") == 0);

  auto one_day = c.get("/v1/usage?start=" + date + "&end=" + date, with_key(t.read.key)).json();
  BOOST_TEST(json_size(one_day, "data") == 1);
  BOOST_TEST(json_int(one_day, "data.0.credits_charged") == credits);
  BOOST_TEST(json_int(one_day, "total.images") == 2);

  // Another team's usage is its own.
  auto other = create_team_with_keys();
  BOOST_TEST(json_int(c.get("/v1/usage", with_key(other.read.key)).json(), "total.credits_charged") == 0);
}

BOOST_AUTO_TEST_CASE(every_day_of_the_range_is_listed_in_order) {
  auto t = create_team_with_keys();
  auto c = api();
  auto r = c.get("/v1/usage?start=2026-02-27&end=2026-03-02", with_key(t.read.key));
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  auto usage = r.json();
  BOOST_TEST(json_str(usage, "start") == "2026-02-27");
  BOOST_TEST(json_str(usage, "end") == "2026-03-02");
  std::vector<std::string> dates;
  for (long i = 0; i < json_size(usage, "data"); ++i) {
    auto at = "data." + std::to_string(i);
    dates.push_back(json_str(usage, at + ".date"));
    BOOST_TEST(json_int(usage, at + ".credits_charged") == 0);
    BOOST_TEST(json_int(usage, at + ".images") == 0);
    BOOST_TEST(json_int(usage, at + ".videos") == 0);
  }
  BOOST_TEST(dates == (std::vector<std::string>{"2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"}));
  auto year = c.get("/v1/usage?start=2025-01-01&end=2025-12-31", with_key(t.read.key)).json();
  BOOST_TEST(json_size(year, "data") == 365);
}

BOOST_AUTO_TEST_CASE(malformed_ranges_are_400) {
  auto t = create_team_with_keys();
  auto c = api();
  check_refused_queries(c, "/v1/usage", t.read.key, {
    {"start=2026-13-01", "invalid_parameter", "start"},
    {"start=2026-02-30", "invalid_parameter", "start"},
    {"end=yesterday", "invalid_parameter", "end"},
    {"start=2026-1-1", "invalid_parameter", "start"},
    {"start=2026-03-02&end=2026-03-01", "invalid_parameter", "start"},
    {"start=2024-01-01&end=2025-12-31", "invalid_parameter", "end"},
    {"from=2026-01-01", "unknown_parameter", "from"},
  });
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
