// Legacy image paths against real jobs (legacy_test.cpp covers the headers
// and path mapping): a 308 itself creates, cancels and charges nothing, and
// following its Location reaches the job; from the sunset on, 410 for the
// create, read and cancel sub-paths, with the job untouched.
#include <boost/test/unit_test.hpp>

#include <boost/json/serialize.hpp>

#include <string>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_legacy_images)

using namespace svc::e2e;

namespace {

// Renders take 5 s, so a job is still cancellable when the test gets to it.
struct before_sunset : server_fixture {
  before_sunset() : server_fixture({"--legacy-sunset", "2099-01-01", "--render-delay", "5s"}) {}
};

struct after_sunset : server_fixture {
  after_sunset() : server_fixture({"--legacy-sunset", "2020-01-01", "--render-delay", "5s"}) {}
};

} // namespace

BOOST_FIXTURE_TEST_CASE(following_the_redirects_reaches_the_image_routes, before_sunset) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto body = boost::json::serialize(image_body("through the old path"));

  auto moved = c.request("POST", "/v1/generations", with_key(t.write.key), body);
  BOOST_TEST(moved.status == 308, moved.summary());
  BOOST_REQUIRE(moved.header_or_empty("Location") == "/v1/images");
  BOOST_TEST(list_image_ids(c, t.read.key).empty(), "the 308 created nothing");
  BOOST_TEST(get_balance(c, t.read.key).available == 1000);

  // A 308 keeps method and body: resend both to the Location.
  auto created = c.request("POST", moved.header_or_empty("Location"), with_key(t.write.key), body);
  BOOST_REQUIRE_MESSAGE(created.status == 201, created.summary());
  auto id = json_str(created.json(), "id");

  auto est = c.request("POST", "/v1/generations/estimate", with_key(t.write.key), body);
  BOOST_TEST(est.status == 308, est.summary());
  BOOST_TEST(est.header_or_empty("Location") == "/v1/images/estimate");

  auto read = c.get("/v1/generations/" + id + "?x=1", with_key(t.read.key));
  BOOST_TEST(read.status == 308, read.summary());
  BOOST_TEST(read.header_or_empty("Location") == "/v1/images/" + id + "?x=1");
  auto target = "/v1/images/" + id;
  BOOST_TEST(json_str(c.get(target, with_key(t.read.key)).json(), "id") == id);

  auto cancel = c.request("POST", "/v1/generations/" + id + "/cancel", with_key(t.write.key));
  BOOST_TEST(cancel.status == 308, cancel.summary());
  BOOST_REQUIRE(cancel.header_or_empty("Location") == "/v1/images/" + id + "/cancel");
  auto status = json_str(get_image(c, t.read.key, id), "status");
  BOOST_TEST((status == "queued" || status == "processing"), "the 308 cancelled nothing: " << status);
  auto cancelled = c.request("POST", cancel.header_or_empty("Location"), with_key(t.write.key));
  BOOST_TEST(cancelled.status == 200, cancelled.summary());
  BOOST_TEST(json_str(cancelled.json(), "status") == "cancelled");
  BOOST_TEST(get_balance(c, t.read.key).available == 1000);

  auto list = c.get("/v1/generations?status=cancelled&limit=5", with_key(t.read.key));
  BOOST_TEST(list.status == 308, list.summary());
  BOOST_TEST(list.header_or_empty("Location") == "/v1/images?status=cancelled&limit=5");
  BOOST_TEST(list_image_ids(c, t.read.key, "status=cancelled") == std::vector<std::string>{id});
}

BOOST_FIXTURE_TEST_CASE(after_the_sunset_the_old_paths_touch_nothing, after_sunset) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto body = boost::json::serialize(image_body("after the sunset"));
  auto gone = c.request("POST", "/v1/generations", with_key(t.write.key), body);
  BOOST_TEST(is_error(gone, 410, "route_sunset"), gone.summary());
  BOOST_TEST(gone.header_or_empty("Location").empty());
  BOOST_TEST(list_image_ids(c, t.read.key).empty());
  BOOST_TEST(get_balance(c, t.read.key).available == 1000);

  auto job = create_image_ok(c, t.write.key, image_body("through the new path"));
  auto id = json_str(job, "id");
  for (std::string path : {"/v1/generations/" + id, "/v1/generations/" + id + "/cancel"}) {
    BOOST_TEST_CONTEXT(path) {
      auto r = c.request(path.find("/cancel") == std::string::npos ? "GET" : "POST", path, with_key(t.write.key));
      BOOST_TEST(is_error(r, 410, "route_sunset"), r.summary());
      BOOST_TEST(r.header_or_empty("Svc-Deprecated") == "route");
      BOOST_TEST(r.header_or_empty("Sunset") == "Wed, 01 Jan 2020 00:00:00 GMT");
    }
  }
  auto status = json_str(get_image(c, t.read.key, id), "status");
  BOOST_TEST((status == "queued" || status == "processing"), "the job was not cancelled: " << status);
  BOOST_TEST(c.request("POST", "/v1/images/" + id + "/cancel", with_key(t.write.key)).status == 200);
}

BOOST_AUTO_TEST_SUITE_END()
