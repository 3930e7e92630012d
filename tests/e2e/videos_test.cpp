// Videos end to end: POST /v1/videos renders an MP4 (H.264) that ffprobe
// reads back with the asked size, frame count and duration; the output URL
// serves byte ranges; `video.completed` reaches a webhook; usage counts it;
// and both cancel paths stop a video with its event and refund.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <set>
#include <string>
#include <thread>

#include <boost/json.hpp>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "media_probe.hpp"
#include "support/output_bytes.hpp"
#include "support/server_fixture.hpp"
#include "support/webhook_receiver_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_videos)

using namespace svc::e2e;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

json::object video_body(int seconds = 2, int fps = 8, int width = 320, int height = 256) {
  return {{"prompt", "a lighthouse on a cliff above a stormy sea"}, {"duration_seconds", seconds}, {"fps", fps},
          {"width", width}, {"height", height}, {"seed", 1234}};
}

response create_video(http_client& c, const std::string& key, const json::value& body) {
  return c.request("POST", "/v1/videos", with_key(key, {{"Content-Type", "application/json"}}), json::serialize(body));
}

json::value create_video_ok(http_client& c, const std::string& key, const json::value& body) {
  auto r = create_video(c, key, body);
  BOOST_REQUIRE_MESSAGE(r.status == 201, r.summary());
  return r.json();
}

// One request that the server holds until the video is terminal (or 60 s pass).
json::value wait_video(http_client& c, const std::string& key, const std::string& id) {
  c.set_timeout(90s);
  auto r = c.get("/v1/videos/" + id, with_key(key, {{"Prefer", "wait=60"}}));
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  return r.json();
}

// Polls GET /v1/videos/{id} until its status is `status`; false after 20 s.
bool wait_video_status(http_client& c, const std::string& key, const std::string& id, std::string_view status) {
  auto deadline = std::chrono::steady_clock::now() + 20s;
  while (std::chrono::steady_clock::now() < deadline) {
    if (json_str(c.get("/v1/videos/" + id, with_key(key)).json(), "status") == status)
      return true;
    std::this_thread::sleep_for(20ms);
  }
  return false;
}

response cancel_at(http_client& c, const std::string& key, const std::string& path) {
  return c.request("POST", path, with_key(key));
}

// svcd with a trusted webhook receiver; one worker that spends 3 s per job
// when `slow`, so a job can be caught processing and another queued.
struct video_fixture : webhook_fixture {
  explicit video_fixture(bool slow = false)
    : webhook_fixture(slow ? std::vector<std::string>{"--render-delay", "3s", "--workers", "1"}
                           : std::vector<std::string>{}) {}
};

struct slow_video_fixture : video_fixture {
  slow_video_fixture() : video_fixture(true) {}
};

} // namespace

BOOST_FIXTURE_TEST_CASE(a_video_renders_to_a_playable_mp4_and_reaches_the_webhook, video_fixture) {
  auto t = create_webhook_team(*this, 10000);
  auto c = api();
  create_endpoint_ok(c, t.write.key, hooks->url(), {"video.completed"});

  auto created = create_video_ok(c, t.write.key, video_body());
  auto id = json_str(created, "id");
  BOOST_TEST(id.rfind("vid_", 0) == 0, id);
  BOOST_TEST(json_str(created, "object") == "video");
  BOOST_TEST(json_int(created, "duration_seconds") == 2);
  BOOST_TEST(json_int(created, "fps") == 8);
  BOOST_TEST(json_int(created, "seed") == 1234);
  BOOST_TEST(json_str(created, "cost.status") == "held");
  auto credits = json_int(created, "cost.credits").value_or(-1);
  BOOST_TEST(credits > 0);

  auto done = wait_video(c, t.read.key, id);
  BOOST_REQUIRE_MESSAGE(json_str(done, "status") == "succeeded", json::serialize(done));
  BOOST_TEST(json_str(done, "cost.status") == "charged");
  BOOST_REQUIRE(json_size(done, "output_urls") == 1);
  BOOST_TEST(json_str(done, "outputs.0.content_type") == "video/mp4");
  BOOST_TEST(json_int(done, "outputs.0.width") == 320);
  BOOST_TEST(json_int(done, "outputs.0.height") == 256);

  auto download = c.get(target_of(json_str(done, "output_urls.0")));
  BOOST_REQUIRE_MESSAGE(download.status == 200, download.summary());
  BOOST_TEST(download.header_or_empty("Content-Type") == "video/mp4");
  BOOST_TEST(download.header_or_empty("Accept-Ranges") == "bytes");
  BOOST_REQUIRE(download.body.size() > 8);
  BOOST_TEST(sha256_hex(download.body) == json_str(done, "outputs.0.sha256"));
  BOOST_TEST(static_cast<long>(download.body.size()) == json_int(done, "outputs.0.bytes").value_or(-1));

  // An ftyp box first, and what ffprobe sees: H.264, the size, duration_seconds x fps frames.
  auto mismatch = svc::test::h264_mp4_mismatch(download.body, 320, 256, 16, 2.0);
  BOOST_TEST(mismatch.empty(), mismatch);

  auto receipt = wait_for_receipt(*hooks, type_is("video.completed"), 20s);
  BOOST_REQUIRE(receipt);
  BOOST_TEST(json_str(receipt->envelope, "data.id") == id);
  BOOST_TEST(json_str(receipt->envelope, "data.object") == "video");
  BOOST_TEST(json_str(receipt->envelope, "data.status") == "succeeded");

  auto list = c.get("/v1/videos?limit=10", with_key(t.read.key));
  BOOST_REQUIRE_MESSAGE(list.status == 200, list.summary());
  BOOST_TEST(json_str(list.json(), "data.0.id") == id);
  BOOST_TEST(json_size(list.json(), "data") == 1);
  BOOST_TEST(list_image_ids(c, t.read.key).empty(), "a video is not an image");
  BOOST_TEST(is_error(c.get("/v1/images/" + id, with_key(t.read.key)), 404, "resource_not_found"));

  auto usage = c.get("/v1/usage?start=" + utc_date() + "&end=" + utc_date(), with_key(t.read.key));
  BOOST_REQUIRE_MESSAGE(usage.status == 200, usage.summary());
  BOOST_TEST(json_int(usage.json(), "total.videos") == 1);
  BOOST_TEST(json_int(usage.json(), "total.images") == 0);
  BOOST_TEST(json_int(usage.json(), "total.credits_charged") == credits);
}

BOOST_FIXTURE_TEST_CASE(video_outputs_serve_byte_ranges, video_fixture) {
  auto t = create_webhook_team(*this, 10000);
  auto c = api();
  auto done = wait_video(c, t.read.key, json_str(create_video_ok(c, t.write.key, video_body(1, 8)), "id"));
  BOOST_REQUIRE_MESSAGE(json_str(done, "status") == "succeeded", json::serialize(done));
  auto url = target_of(json_str(done, "output_urls.0"));
  auto whole = c.get(url).body;
  auto size = whole.size();
  BOOST_REQUIRE(size > 200);
  auto total = "/" + std::to_string(size);

  auto head = c.get(url, {{"Range", "bytes=0-99"}});
  BOOST_REQUIRE_MESSAGE(head.status == 206, head.summary());
  BOOST_TEST(head.header_or_empty("Content-Range") == "bytes 0-99" + total);
  BOOST_TEST(head.header_or_empty("Content-Type") == "video/mp4");
  BOOST_TEST(head.header_or_empty("Content-Length") == "100");
  BOOST_TEST((head.body == whole.substr(0, 100)));

  auto tail = c.get(url, {{"Range", "bytes=-50"}});
  BOOST_REQUIRE_MESSAGE(tail.status == 206, tail.summary());
  BOOST_TEST(tail.header_or_empty("Content-Range") == "bytes " + std::to_string(size - 50) + "-" + std::to_string(size - 1) + total);
  BOOST_TEST((tail.body == whole.substr(size - 50)));

  auto rest = c.get(url, {{"Range", "bytes=100-"}});
  BOOST_REQUIRE_MESSAGE(rest.status == 206, rest.summary());
  BOOST_TEST((rest.body == whole.substr(100)));

  auto clamped = c.get(url, {{"Range", "bytes=10-99999999"}});
  BOOST_TEST(clamped.status == 206);
  BOOST_TEST(clamped.header_or_empty("Content-Range") == "bytes 10-" + std::to_string(size - 1) + total);

  auto past = c.get(url, {{"Range", "bytes=" + std::to_string(size) + "-"}});
  BOOST_TEST(is_error(past, 416, "range_not_satisfiable"), past.summary());
  BOOST_TEST(past.header_or_empty("Content-Range") == "bytes */" + std::to_string(size));

  auto several = c.get(url, {{"Range", "bytes=0-1,5-9"}});
  BOOST_TEST(several.status == 200, "several ranges are served whole");
  BOOST_TEST(several.body.size() == size);
  auto stale = c.get(url, {{"Range", "bytes=0-9"}, {"If-Range", "\"not-the-etag\""}});
  BOOST_TEST(stale.status == 200, "If-Range with another ETag gets the whole file");
  auto fresh = c.get(url, {{"Range", "bytes=0-9"}, {"If-Range", head.header_or_empty("ETag")}});
  BOOST_TEST(fresh.status == 206);
  auto garbage = c.get(url, {{"Range", "bytes=abc"}});
  BOOST_TEST(garbage.status == 200, "a malformed range is ignored");
}

BOOST_FIXTURE_TEST_CASE(videos_cancel_through_both_paths_with_events_and_refunds, slow_video_fixture) {
  auto t = create_webhook_team(*this, 10000);
  auto c = api();
  create_endpoint_ok(c, t.write.key, hooks->url(), {"video.cancelled"});

  auto first_id = json_str(create_video_ok(c, t.write.key, video_body(1, 8)), "id");
  auto second_id = json_str(create_video_ok(c, t.write.key, video_body(1, 8)), "id");
  // The single worker takes the first; the second waits queued behind it.
  BOOST_REQUIRE(wait_video_status(c, t.read.key, first_id, "processing"));
  BOOST_TEST(json_str(c.get("/v1/videos/" + second_id, with_key(t.read.key)).json(), "status") == "queued");
  BOOST_TEST(get_balance(c, t.read.key).held > 0);

  auto by_video_path = cancel_at(c, t.write.key, "/v1/videos/" + first_id + "/cancel");
  BOOST_REQUIRE_MESSAGE(by_video_path.status == 200, by_video_path.summary());
  BOOST_TEST(json_str(by_video_path.json(), "object") == "video");
  BOOST_TEST(json_str(by_video_path.json(), "status") == "cancelled");
  BOOST_TEST(json_str(by_video_path.json(), "cost.status") == "refunded");

  auto by_image_path = cancel_at(c, t.write.key, "/v1/images/" + second_id + "/cancel");
  BOOST_REQUIRE_MESSAGE(by_image_path.status == 200, by_image_path.summary());
  BOOST_TEST(json_str(by_image_path.json(), "id") == second_id);
  BOOST_TEST(json_str(by_image_path.json(), "status") == "cancelled");
  BOOST_TEST(json_str(by_image_path.json(), "cost.status") == "refunded");

  auto balance = get_balance(c, t.read.key);
  BOOST_TEST(balance.available == 10000, "both holds refunded");
  BOOST_TEST(balance.held == 0);

  BOOST_REQUIRE(wait_for_receipts(*hooks, 2, type_is("video.cancelled"), 20s));
  std::set<std::string> cancelled;
  for (auto& r : receipts_of_type(*hooks, "video.cancelled"))
    cancelled.insert(json_str(r.envelope, "data.id"));
  BOOST_TEST(cancelled.count(first_id) == 1);
  BOOST_TEST(cancelled.count(second_id) == 1);

  auto again = cancel_at(c, t.write.key, "/v1/videos/" + first_id + "/cancel");
  BOOST_TEST(is_error(again, 409, "invalid_state"), again.summary());
  auto image = create_image_ok(c, t.write.key, image_body());
  auto wrong_kind = cancel_at(c, t.write.key, "/v1/videos/" + json_str(image, "id") + "/cancel");
  BOOST_TEST(is_error(wrong_kind, 404, "resource_not_found"), "the videos path cancels only videos");
  auto other = create_webhook_team(*this, 100);
  auto foreign = cancel_at(c, other.write.key, "/v1/videos/" + first_id + "/cancel");
  BOOST_TEST(is_error(foreign, 404, "resource_not_found"));
}

BOOST_FIXTURE_TEST_CASE(video_bodies_are_validated_and_priced_per_second, server_fixture) {
  auto t = create_team_with_keys(100000);
  auto c = api();
  auto steps = create_video(c, t.write.key, json::object{{"prompt", "x"}, {"steps", 20}});
  BOOST_TEST(is_error(steps, 400, "unknown_parameter"), steps.summary());
  auto long_video = create_video(c, t.write.key, json::object{{"prompt", "x"}, {"duration_seconds", 11}});
  BOOST_TEST(is_error(long_video, 400, "invalid_parameter"), long_video.summary());
  BOOST_TEST(json_str(long_video.json(), "error.param") == "duration_seconds");

  auto four = create_video_ok(c, t.write.key, video_body(4, 8));
  auto eight = create_video_ok(c, t.write.key, video_body(8, 8));
  BOOST_TEST(json_int(eight, "cost.credits").value_or(0) == 2 * json_int(four, "cost.credits").value_or(-1),
             "twice the seconds, twice the price");
  auto defaults = create_video_ok(c, t.write.key, json::object{{"prompt", "a quiet harbour"}});
  BOOST_TEST(json_int(defaults, "duration_seconds") == 4);
  BOOST_TEST(json_int(defaults, "fps") == 24);
  BOOST_TEST(json_int(defaults, "width") == 768);
  BOOST_TEST(json_int(defaults, "height") == 432);

  auto pricing = c.get("/v1/pricing", with_key(t.read.key));
  BOOST_REQUIRE_MESSAGE(pricing.status == 200, pricing.summary());
  BOOST_TEST(pricing.body.find("\"video\"") != std::string::npos, "the price table lists videos");
}

BOOST_AUTO_TEST_SUITE_END()
