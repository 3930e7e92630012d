// svcd with `--provider remote` against a small A1111-compatible server in
// this process: a job renders there with its LoRA as a prompt token, seed,
// size and steps, and serves the PNGs the server returned; a 500, a dead
// server and a slow one fail the job with their failure codes and refund it;
// a cancel during rendering interrupts the server; without a valid
// `--remote-url` svcd does not start. A video renders its keyframe there and
// is animated into an MP4 by svcd. Every call carries the create request's
// `X-Request-Id` and a child span of its `traceparent`.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include <boost/json.hpp>

#include "a1111_server.hpp"
#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "media_probe.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"
#include "tests/support/fixture_with.hpp"

BOOST_AUTO_TEST_SUITE(e2e_remote_backend)

using namespace svc::e2e;
using svc::test::a1111_mode;
using svc::test::a1111_server;
using namespace std::chrono_literals;

namespace {

// Started before svcd, which needs its URL.
struct with_fake {
  explicit with_fake(a1111_mode mode) : fake(mode) {}
  a1111_server fake;
};

std::vector<std::string> remote_args(const std::string& url, std::vector<std::string> more) {
  std::vector<std::string> args{"--provider", "remote", "--remote-url", url, "--remote-retries", "2",
                                "--remote-backoff", "50ms", "--remote-poll", "50ms", "--remote-connect-timeout", "2s",
                                "--workers", "1"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

struct remote_fixture : with_fake, server_fixture {
  explicit remote_fixture(a1111_mode mode, std::vector<std::string> more = {"--remote-timeout", "30s"})
      : with_fake(mode), server_fixture(remote_args(fake.url(), std::move(more))) {}
  team_keys t = create_team_with_keys(1000);
  http_client c = api();

  // Creates a small image and waits until it is terminal.
  boost::json::value run_job() {
    auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
    return wait_terminal(c, t.read.key, id, 30s);
  }

  // A terminal failure with `code`, its hold back with the team.
  void check_failed_and_refunded(const boost::json::value& job, const std::string& code) {
    BOOST_TEST(json_str(job, "status") == "failed", job);
    BOOST_TEST(json_str(job, "failure.code") == code, job);
    BOOST_TEST(json_str(job, "cost.status") == "refunded");
    BOOST_TEST(json_size(job, "output_urls") == 0);
    auto b = get_balance(c, t.read.key);
    BOOST_TEST(b.available == 1000);
    BOOST_TEST(b.held == 0);
  }
};

using ok_server = svc::test::fixture_with<remote_fixture, a1111_mode::ok>;
using failing_server = svc::test::fixture_with<remote_fixture, a1111_mode::fail_500>;
struct slow_server : remote_fixture {
  slow_server() : remote_fixture(a1111_mode::slow, {"--remote-timeout", "1s"}) {}
};
struct slow_server_long_deadline : remote_fixture {
  slow_server_long_deadline() : remote_fixture(a1111_mode::slow) { fake.set_slow_time(5s); }
};

} // namespace

BOOST_FIXTURE_TEST_CASE(a_job_renders_remotely_with_its_lora_seed_size_and_steps, ok_server) {
  auto loras = c.get("/v1/loras?limit=100", with_key(t.read.key)).json();
  auto slug = json_str(loras, "data.0.slug");
  BOOST_REQUIRE(!slug.empty());
  auto body = image_body("a lighthouse at dusk", 320, 256);
  body["lora_id"] = slug;
  body["seed"] = 1234;
  body["steps"] = 20;
  body["num_outputs"] = 2;
  auto created = create_image_ok(c, t.write.key, body);
  auto job = wait_terminal(c, t.read.key, json_str(created, "id"));
  BOOST_REQUIRE_MESSAGE(json_str(job, "status") == "succeeded", job);

  auto renders = fake.renders();
  BOOST_REQUIRE(renders.size() == 1u);
  auto& sent = renders[0];
  BOOST_TEST(sent.at("prompt").as_string() == "a lighthouse at dusk <lora:" + slug + ":1>");
  BOOST_TEST(sent.at("seed").as_int64() == 1234);
  BOOST_TEST(sent.at("width").as_int64() == 320);
  BOOST_TEST(sent.at("height").as_int64() == 256);
  BOOST_TEST(sent.at("steps").as_int64() == 20);
  BOOST_TEST(sent.at("batch_size").as_int64() == 2);

  auto images = fake.images_sent();
  BOOST_REQUIRE(images.size() == 1u);
  BOOST_REQUIRE(json_size(job, "output_urls") == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    auto r = c.get(target_of(json_str(job, "output_urls." + std::to_string(i))));
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
    BOOST_TEST(r.header_or_empty("Content-Type") == "image/png");
    BOOST_TEST(r.body == images[0][i], "output " << i << " is the PNG the back end returned");
  }
  BOOST_TEST(json_str(job, "cost.status") == "charged");
  BOOST_TEST(get_balance(c, t.read.key).held == 0);
}

BOOST_FIXTURE_TEST_CASE(the_back_end_is_called_with_the_create_requests_id_and_trace, ok_server) {
  const std::string trace = "4bf92f3577b34da6a3ce929d0e0e4736";
  auto created = create_image_ok(
    c, t.write.key, image_body(), {{"X-Request-Id", "client-abc"}, {"traceparent", "00-" + trace + "-00f067aa0ba902b7-01"}});
  auto job = wait_terminal(c, t.read.key, json_str(created, "id"));
  BOOST_REQUIRE_MESSAGE(json_str(job, "status") == "succeeded", job);
  auto calls = fake.requests();
  BOOST_REQUIRE(!calls.empty());
  for (auto& call : calls) {
    BOOST_TEST(call.request_id == "client-abc", call.target);
    BOOST_TEST(call.traceparent.rfind("00-" + trace + "-", 0) == 0u, call.target << ": " << call.traceparent);
    BOOST_TEST(call.traceparent.substr(36, 16) != "00f067aa0ba902b7", "a span of svcd's own");
    BOOST_TEST(call.traceparent.substr(52) == "-01", call.target);
  }
}

BOOST_FIXTURE_TEST_CASE(a_500_fails_the_job_with_provider_error, failing_server) {
  auto job = run_job();
  check_failed_and_refunded(job, "provider_error");
  BOOST_TEST(json_str(job, "failure.message").find("HTTP 500") != std::string::npos, job);
  BOOST_TEST(json_str(job, "failure.message").find("CUDA") == std::string::npos,
             "the engine's own answer stays with the operator: " << job);
  BOOST_TEST(svcd.log_tail(200).find("CUDA out of memory") != std::string::npos, "it is in the log");
  BOOST_TEST(fake.count("/sdapi/v1/txt2img") == 1u, "a failed generation is not retried");
}

BOOST_FIXTURE_TEST_CASE(a_dead_back_end_fails_the_job_with_provider_unavailable, ok_server) {
  fake.close();
  auto job = run_job();
  check_failed_and_refunded(job, "provider_unavailable");
  BOOST_TEST(json_str(job, "failure.message").find("3 attempts") != std::string::npos, job);
}

BOOST_FIXTURE_TEST_CASE(a_slow_back_end_fails_the_job_with_provider_timeout, slow_server) {
  auto job = run_job();
  check_failed_and_refunded(job, "provider_timeout");
  BOOST_TEST(wait_until([&] { return fake.interrupts() == 1; }, 5s), "the GPU is told to stop");
}

BOOST_FIXTURE_TEST_CASE(cancel_during_rendering_interrupts_the_back_end, slow_server_long_deadline) {
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  BOOST_REQUIRE(wait_until([&] { return fake.count("/sdapi/v1/txt2img") == 1; }, 10s));
  auto rendering = poll_image(
    c, t.read.key, id, [](const boost::json::value& r) { return json_at(r, "progress")->to_number<double>() >= 0.1; },
    10s);
  BOOST_TEST(json_str(rendering, "status") == "processing");
  BOOST_TEST(json_at(rendering, "progress")->to_number<double>() >= 0.1, "the back end's progress shows");

  auto r = c.request("POST", "/v1/images/" + id + "/cancel", with_key(t.write.key));
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  BOOST_TEST(json_str(r.json(), "status") == "cancelled");
  BOOST_TEST(json_str(r.json(), "cost.status") == "refunded");
  BOOST_TEST(wait_until([&] { return fake.interrupts() == 1; }, 5s), "the GPU is told to stop");
  BOOST_TEST(get_balance(c, t.read.key).available == 1000);
}

BOOST_AUTO_TEST_CASE(svcd_refuses_to_start_without_a_valid_remote_url) {
  const std::vector<std::vector<std::string>> bad{{"--provider", "remote"},
                                                  {"--provider", "remote", "--remote-url", "gpu:7860"},
                                                  {"--provider", "remote", "--remote-url", "http://gpu:99999"}};
  for (auto& args : bad) {
    try {
      svcd_process svcd(args);
      BOOST_ERROR("svcd started with " << args.back());
    } catch (const std::runtime_error& e) {
      std::string why = e.what();
      BOOST_TEST(why.find("exited during start with status 1") != std::string::npos, why);
      BOOST_TEST(why.find("--remote-url") != std::string::npos, why);
    }
  }
}

BOOST_FIXTURE_TEST_CASE(a_video_animates_a_keyframe_rendered_remotely, ok_server) {
  boost::json::object body{{"prompt", "a harbour at dawn"}, {"duration_seconds", 1}, {"fps", 8},
                           {"width", 320}, {"height", 256}, {"seed", 99}};
  auto created = c.request("POST", "/v1/videos", with_key(t.write.key, {{"Content-Type", "application/json"}}),
                           boost::json::serialize(body));
  BOOST_REQUIRE_MESSAGE(created.status == 201, created.summary());
  c.set_timeout(90s);
  auto job = c.get("/v1/videos/" + json_str(created.json(), "id"), with_key(t.read.key, {{"Prefer", "wait=60"}})).json();
  BOOST_REQUIRE_MESSAGE(json_str(job, "status") == "succeeded", job);

  auto renders = fake.renders();
  BOOST_REQUIRE(renders.size() == 1u);
  BOOST_TEST(renders[0].at("seed").as_int64() == 99);
  BOOST_TEST(renders[0].at("batch_size").as_int64() == 1);
  BOOST_TEST(renders[0].at("width").as_int64() >= 400, "a keyframe larger than the frame, for the camera move");
  BOOST_TEST(renders[0].at("width").as_int64() % 8 == 0);
  BOOST_TEST(renders[0].at("height").as_int64() % 8 == 0);

  auto video = c.get(target_of(json_str(job, "output_urls.0")));
  BOOST_REQUIRE_MESSAGE(video.status == 200, video.summary());
  BOOST_TEST(video.header_or_empty("Content-Type") == "video/mp4");
  auto mismatch = svc::test::h264_mp4_mismatch(video.body, 320, 256, 8, 1.0);
  BOOST_TEST(mismatch.empty(), mismatch);
}

BOOST_AUTO_TEST_SUITE_END()
