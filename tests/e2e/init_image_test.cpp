// Uploads as init images: an image and a video created with an uploaded
// `init_image` visibly derive from it (their pixels are much closer to the
// upload than the same request's without it), and a video whose init image
// cannot be decoded fails with `video.failed` and a refund.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <string>

#include <boost/json.hpp>

#include "support/file_uploads.hpp"
#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "media_probe.hpp"
#include "support/server_fixture.hpp"
#include "support/webhook_receiver_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_init_image)

using namespace svc::e2e;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

constexpr int width = 320, height = 256;
// Outputs are compared with the upload at this coarse size: composition and
// colour, which survive the video's camera move, not pixel-exact detail.
constexpr int probe_width = 32, probe_height = 26;

// Creates a job on `path`, waits with `Prefer: wait` until it is terminal, and returns the record.
json::value run_job(http_client& c, const team_keys& t, const std::string& path, const json::object& body) {
  auto created = c.request("POST", path, with_key(t.write.key, {{"Content-Type", "application/json"}}),
                           json::serialize(body));
  BOOST_REQUIRE_MESSAGE(created.status == 201, created.summary());
  c.set_timeout(90s);
  auto id = json_str(created.json(), "id");
  auto r = c.get(path + "/" + id, with_key(t.read.key, {{"Prefer", "wait=60"}}));
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  return r.json();
}

// The first frame of a succeeded job's first output, as coarse RGB.
std::string first_frame(http_client& c, const json::value& job) {
  BOOST_REQUIRE_MESSAGE(json_str(job, "status") == "succeeded", job);
  auto bytes = c.get(target_of(json_str(job, "output_urls.0")));
  BOOST_REQUIRE_MESSAGE(bytes.status == 200, bytes.summary());
  std::string error;
  auto rgb = svc::test::first_frame_rgb(bytes.body, probe_width, probe_height, error);
  BOOST_REQUIRE_MESSAGE(rgb, error);
  return *rgb;
}

struct upload_fixture : server_fixture {
  team_keys t = create_team_with_keys(100000);
  http_client c = api();
  std::string pattern; // the uploaded JPEG
  std::string pattern_rgb;
  std::string file_id;

  upload_fixture() {
    std::string error;
    // Red left half, blue right half: unlike any landscape, and still so
    // after the video's camera crops and moves over it.
    auto jpeg = svc::test::lavfi_image("color=c=red:s=320x256,drawbox=x=160:y=0:w=160:h=256:color=blue:t=fill", "jpg", error);
    BOOST_REQUIRE_MESSAGE(jpeg, error);
    pattern = *jpeg;
    auto rgb = svc::test::first_frame_rgb(pattern, probe_width, probe_height, error);
    BOOST_REQUIRE_MESSAGE(rgb, error);
    pattern_rgb = *rgb;
    file_id = json_str(upload_file_ok(c, t.write.key, pattern), "id");
  }

  // Runs `body` with and without the upload and checks the first is much closer to it.
  void check_derives(const std::string& path, json::object body) {
    auto plain = run_job(c, t, path, body);
    body["init_image"] = file_id;
    auto derived = run_job(c, t, path, body);
    BOOST_TEST(json_str(derived, "init_image") == file_id);
    auto with = svc::test::mean_abs_difference(first_frame(c, derived), pattern_rgb);
    auto without = svc::test::mean_abs_difference(first_frame(c, plain), pattern_rgb);
    BOOST_TEST_MESSAGE(path << ": distance to the upload " << with << " with it, " << without << " without");
    BOOST_TEST(with >= 0);
    BOOST_TEST(with < without * 0.6, "with " << with << " vs without " << without);
  }
};

} // namespace

BOOST_FIXTURE_TEST_CASE(an_image_derives_from_its_uploaded_init_image, upload_fixture) {
  check_derives("/v1/images", {{"prompt", "a mountain lake at dusk"}, {"seed", 42}, {"width", width},
                               {"height", height}});
}

BOOST_FIXTURE_TEST_CASE(a_video_derives_from_its_uploaded_init_image, upload_fixture) {
  check_derives("/v1/videos", {{"prompt", "a mountain lake at dusk"}, {"seed", 42}, {"width", width},
                               {"height", height}, {"duration_seconds", 1}, {"fps", 8}});
}

BOOST_FIXTURE_TEST_CASE(an_undecodable_init_image_fails_the_video_with_its_event_and_refund, webhook_fixture) {
  auto t = create_webhook_team(*this, 100000);
  auto c = api();
  create_endpoint_ok(c, t.write.key, hooks->url(), {"video.failed"});
  // A PNG signature and header (so sniffing accepts it), then no image data.
  auto png = test_image("tiny.png");
  auto broken = png.substr(0, 33) + std::string(64, '\x5a');
  auto file = upload_file_ok(c, t.write.key, broken);

  auto job = run_job(c, t, "/v1/videos",
                     {{"prompt", "a harbour"}, {"width", width}, {"height", height}, {"duration_seconds", 1},
                      {"fps", 8}, {"init_image", json_str(file, "id")}});
  BOOST_TEST(json_str(job, "status") == "failed", job);
  BOOST_TEST(json_str(job, "failure.code") == "provider_error", job);
  BOOST_TEST(json_str(job, "cost.status") == "refunded");
  auto balance = get_balance(c, t.read.key);
  BOOST_TEST(balance.available == 100000);
  BOOST_TEST(balance.held == 0);
  auto receipt = wait_for_receipt(*hooks, type_is("video.failed"), 20s);
  BOOST_REQUIRE(receipt);
  BOOST_TEST(json_str(receipt->envelope, "data.id") == json_str(job, "id"));
  BOOST_TEST(json_str(receipt->envelope, "data.failure.code") == "provider_error");
}

BOOST_AUTO_TEST_SUITE_END()
