// svcd with `--engines` on the shipped Cog example, its two containers
// replaced by stand-ins in this process (tests/support/cog_server), in both
// profiles (coglet 0.17+ and the Python server 0.16): a stacked LoRA reaches
// the model as its lora_urls/lora_scales inputs, with seed, size and count;
// img2img sends the init image as a data: URI; a video is the MP4 the model
// made, probed; a cancel while queued never reaches the container and one
// while running does; each fault (409 busy, 503 setup, a failure inside an
// HTTP 200, an oversized output, a hang, a restart) ends the job as the
// brief says, refunded and with its event; the webhook route takes only the
// calls of a prediction svcd started; an input map that does not fit the
// model's schema stops svcd at start; a `kill -9` mid-render ends the job
// exactly once.
#include <boost/test/unit_test.hpp>

#include <regex>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/json.hpp>

#include "cog_server.hpp"
#include "core/callback_inbox.hpp"
#include "media_probe.hpp"
#include "support/engine_jobs.hpp"
#include "support/file_uploads.hpp"
#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/process.hpp"
#include "support/output_bytes.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_cog)

using namespace svc::e2e;
using svc::test::cog_faults;
using svc::test::cog_model_kind;
using svc::test::cog_options;
using svc::test::cog_profile;
using svc::test::cog_server;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

const std::string cog_examples = SVC_EXAMPLES_DIR;

// The example engines file, its containers replaced by the stand-ins.
std::string cog_engines_yaml(const cog_server& image, const cog_server& video) {
  auto text = read_file(cog_examples + "/engines/cog.yaml");
  BOOST_REQUIRE(!text.empty());
  text = std::regex_replace(text, std::regex{"http://127\\.0\\.0\\.1:5000"}, image.url());
  return std::regex_replace(text, std::regex{"http://127\\.0\\.0\\.1:5001"}, video.url());
}

// A port free now, for the engine-callback listener: it must stay the same
// across a restart of svcd, since a container posts to the URL it was given.
std::string free_loopback_port() {
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::acceptor a(ioc, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return std::to_string(a.local_endpoint().port());
}

// One render per job: each case shows what a fault does to a render, not a
// second one elsewhere (the job directory's failover has unit cases of its own).
std::vector<std::string> cog_args(const std::string& file, const std::string& timeout) {
  return {"--engines", file, "--remote-retries", "2", "--remote-backoff", "50ms", "--remote-connect-timeout", "2s",
          "--remote-timeout", timeout, "--engine-silence", "300ms", "--render-attempts", "1",
          "--engine-callback-listen", "127.0.0.1:" + free_loopback_port()};
}

cog_options made_with(cog_profile profile, cog_model_kind kind, std::chrono::milliseconds render_time,
                      bool webm = false) {
  cog_options o;
  o.webm_video = webm;
  o.profile = profile;
  o.kind = kind;
  o.render_time = render_time;
  return o;
}

// Started before svcd, which checks the input maps against them at start.
struct with_containers {
  with_containers(cog_profile profile, std::chrono::milliseconds render_time, bool webm)
      : image(made_with(profile, cog_model_kind::image, render_time)),
        video(made_with(profile, cog_model_kind::video, render_time, webm)),
        file(cog_engines_yaml(image, video), ".yaml") {}
  cog_server image, video;
  svc::test::temp_file file;
};

struct cog_fixture : with_containers, server_fixture {
  explicit cog_fixture(cog_profile profile = cog_profile::coglet, std::string timeout = "30s",
                       std::chrono::milliseconds render_time = 50ms, bool webm = false)
      : with_containers(profile, render_time, webm), server_fixture(cog_args(file.path(), timeout)) {}
  team_keys t = create_team_with_keys(1000);
  http_client c = api();

  json::value run(const std::string& path, const json::object& body) { return run_engine_job(c, t, path, body); }
  void check_failed_and_refunded(const json::value& job, const std::string& code, const std::string& message_part) {
    svc::e2e::check_failed_and_refunded(c, t, job, code, message_part);
  }
  int terminal_events(const std::string& id) { return svc::e2e::terminal_events(c, t.read.key, id); }
};

struct python_fixture : cog_fixture {
  python_fixture() : cog_fixture(cog_profile::python) {}
};
struct slow_cog_fixture : cog_fixture {
  slow_cog_fixture() : cog_fixture(cog_profile::coglet, "30s", 1500ms) {}
};
struct short_deadline_cog_fixture : cog_fixture {
  short_deadline_cog_fixture() : cog_fixture(cog_profile::coglet, "2s") {}
};

std::string input_text(const json::object& prediction, const char* name) {
  return json_str(prediction, std::string{"input."} + name);
}

// The image job's stacked-LoRA run, checked on the container: what both profiles must pass.
void check_stacked_lora_image(cog_fixture& f) {
  auto body = image_body("a lighthouse at dusk", 320, 256);
  body["seed"] = 1234;
  body["steps"] = 12;
  body["num_outputs"] = 2;
  body["loras"] = json::array{json::object{{"lora", "watercolor"}, {"weight", 0.8}},
                              json::object{{"lora", "neon-noir"}, {"weight", 0.5}}};
  auto job = f.run("/v1/images", body);
  BOOST_REQUIRE_MESSAGE(json_str(job, "status") == "succeeded", job);
  BOOST_TEST(json_str(job, "model") == "sdxl-loras", job);

  auto sent = f.image.predictions();
  BOOST_REQUIRE(sent.size() == 1u);
  auto& p = sent[0];
  BOOST_TEST(json_str(p, "id") == json_str(job, "id"), "the prediction has the job's id");
  BOOST_TEST(input_text(p, "prompt") == "a lighthouse at dusk");
  BOOST_TEST(json_int(p, "input.seed") == 1234);
  BOOST_TEST(json_int(p, "input.num_inference_steps") == 12);
  BOOST_TEST(json_int(p, "input.width") == 320);
  BOOST_TEST(json_int(p, "input.height") == 256);
  BOOST_TEST(json_int(p, "input.num_outputs") == 2);
  BOOST_TEST(input_text(p, "scheduler") == "K_EULER", "a constant of the model");
  BOOST_TEST(input_text(p, "lora_urls") == "https://models.example.com/loras/watercolor_sdxl.safetensors|"
                                           "https://models.example.com/loras/neon_sdxl.safetensors");
  BOOST_TEST(input_text(p, "lora_scales") == "0.8|0.5");
  BOOST_TEST(json_str(p, "webhook").find("/cog/predictions/" + json_str(job, "id") + "?token=") != std::string::npos);
  bool async_put = false;
  for (auto& r : f.image.requests())
    async_put = async_put || (r.method == "PUT" && r.path == "/predictions/" + json_str(job, "id") &&
                              r.prefer == "respond-async");
  BOOST_TEST(async_put, "PUT /predictions/<job id> with Prefer: respond-async");

  BOOST_REQUIRE(json_size(job, "output_urls") == 2);
  for (int i = 0; i < 2; ++i) {
    auto r = f.c.get(target_of(json_str(job, "output_urls." + std::to_string(i))));
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
    BOOST_TEST(r.header_or_empty("Content-Type") == "image/png");
    auto size = png_dimensions(r.body);
    BOOST_REQUIRE(size);
    BOOST_TEST(size->width == 320);
    BOOST_TEST(size->height == 256);
  }
  BOOST_TEST(json_str(job, "cost.status") == "charged");
  BOOST_TEST(f.image.count("GET", "/predictions*") == 0u, "Cog has no GET of a prediction");
}

// A one-second 16 fps video job on the video container; its terminal state.
json::value run_video(cog_fixture& f) {
  json::object body{{"prompt", "a harbour at dawn"}, {"duration_seconds", 1}, {"fps", 16},
                    {"width", 320}, {"height", 256}, {"seed", 99}};
  auto created = f.c.request("POST", "/v1/videos", with_key(f.t.write.key, {{"Content-Type", "application/json"}}),
                             json::serialize(body));
  BOOST_REQUIRE_MESSAGE(created.status == 201, created.summary());
  f.c.set_timeout(90s);
  return f.c.get("/v1/videos/" + json_str(created.json(), "id"), with_key(f.t.read.key, {{"Prefer", "wait=60"}})).json();
}

} // namespace

BOOST_FIXTURE_TEST_CASE(an_image_with_stacked_loras_reaches_the_model_as_its_lora_inputs, cog_fixture) {
  check_stacked_lora_image(*this);
}

BOOST_FIXTURE_TEST_CASE(the_python_server_answers_differently_and_works_too, python_fixture) {
  check_stacked_lora_image(*this);
}

BOOST_FIXTURE_TEST_CASE(img2img_sends_the_init_image_as_a_data_uri, cog_fixture) {
  std::string error;
  auto jpeg = svc::test::lavfi_image("color=c=red:s=320x256", "jpg", error);
  BOOST_REQUIRE_MESSAGE(jpeg, error);
  auto file_id = json_str(upload_file_ok(c, t.write.key, *jpeg), "id");
  auto body = image_body("the same, in winter", 320, 256);
  body["init_image"] = file_id;
  auto job = run("/v1/images", body);
  BOOST_REQUIRE_MESSAGE(json_str(job, "status") == "succeeded", job);
  auto sent = image.predictions();
  BOOST_REQUIRE(sent.size() == 1u);
  BOOST_TEST(input_text(sent[0], "image").rfind("data:image/jpeg;base64,", 0) == 0u);
  BOOST_TEST(sent[0].at("input").at("prompt_strength").to_number<double>() == 0.75);
}

BOOST_FIXTURE_TEST_CASE(a_video_is_the_mp4_the_model_made, cog_fixture) {
  auto job = run_video(*this);
  BOOST_REQUIRE_MESSAGE(json_str(job, "status") == "succeeded", job);
  BOOST_TEST(json_str(job, "model") == "text-to-video", job);
  auto sent = video.predictions();
  BOOST_REQUIRE(sent.size() == 1u);
  BOOST_TEST(json_int(sent[0], "input.num_frames") == 16);
  BOOST_TEST(json_int(sent[0], "input.fps") == 16);
  BOOST_TEST(image.predictions().empty());
  auto mp4 = c.get(target_of(json_str(job, "output_urls.0")));
  BOOST_REQUIRE_MESSAGE(mp4.status == 200, mp4.summary());
  BOOST_TEST(mp4.header_or_empty("Content-Type") == "video/mp4");
  auto mismatch = svc::test::h264_mp4_mismatch(mp4.body, 320, 256, 16, 1.0);
  BOOST_TEST(mismatch.empty(), mismatch);
}

BOOST_FIXTURE_TEST_CASE(a_video_short_of_the_asked_frames_fails_and_is_refunded, cog_fixture) {
  cog_faults short_by_four;
  short_by_four.missing_frames = 4; // the model allows one frame off
  video.set_faults(short_by_four);
  auto job = run_video(*this);
  BOOST_TEST(json_str(job, "status") == "failed", job);
  BOOST_TEST(json_str(job, "failure.code") == "provider_error", job);
  BOOST_TEST(json_str(job, "failure.message").find("12 frames") != std::string::npos, job);
  BOOST_TEST(json_str(job, "cost.status") == "refunded", job);
  BOOST_TEST(get_balance(c, t.read.key).available == 1000);
  cog_faults one_short;
  one_short.missing_frames = 1;
  video.set_faults(one_short);
  job = run_video(*this);
  BOOST_TEST(json_str(job, "status") == "succeeded", "within the tolerance: " << job);
}

struct webm_fixture : cog_fixture {
  webm_fixture() : cog_fixture(cog_profile::coglet, "30s", 50ms, true) {}
};

BOOST_FIXTURE_TEST_CASE(a_webm_video_is_served_as_webm_with_byte_ranges, webm_fixture) {
  auto job = run_video(*this);
  BOOST_REQUIRE_MESSAGE(json_str(job, "status") == "succeeded", job);
  auto target = target_of(json_str(job, "output_urls.0"));
  auto whole = c.get(target);
  BOOST_REQUIRE_MESSAGE(whole.status == 200, whole.summary());
  BOOST_TEST(whole.header_or_empty("Content-Type") == "video/webm");
  BOOST_TEST(whole.body.substr(0, 4) == std::string("\x1a\x45\xdf\xa3"), "an EBML header");
  auto part = c.get(target, {{"Range", "bytes=4-99"}});
  BOOST_TEST(part.status == 206, part.summary());
  BOOST_TEST(part.header_or_empty("Content-Type") == "video/webm");
  BOOST_TEST(part.body == whole.body.substr(4, 96));
}

BOOST_FIXTURE_TEST_CASE(a_cancel_while_queued_never_reaches_the_container_and_one_while_running_does, cog_fixture) {
  image.set_faults({false, false, false, true, 0}); // the first prediction never ends by itself
  auto running = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  BOOST_REQUIRE(wait_until([&] { return image.running() == running; }, 10s));
  auto queued = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  auto r = c.request("POST", "/v1/images/" + queued + "/cancel", with_key(t.write.key), "");
  BOOST_TEST_REQUIRE(r.status == 200, r.summary());
  BOOST_TEST(json_str(wait_terminal(c, t.read.key, queued, 10s), "status") == "cancelled");
  r = c.request("POST", "/v1/images/" + running + "/cancel", with_key(t.write.key), "");
  BOOST_TEST_REQUIRE(r.status == 200, r.summary());
  BOOST_TEST(json_str(wait_terminal(c, t.read.key, running, 10s), "status") == "cancelled");
  BOOST_TEST(wait_until([&] { return image.count("POST", "/predictions/" + running + "/cancel") == 1u; }, 5s));
  BOOST_TEST(image.count("PUT", "/predictions/" + queued) == 0u, "Cog has no queue: svcd kept it");
  BOOST_TEST(wait_until([&] { return image.running().empty(); }, 5s));
  BOOST_TEST(get_balance(c, t.read.key).available == 1000);
}

BOOST_FIXTURE_TEST_CASE(a_busy_container_is_provider_unavailable_after_retries, cog_fixture) {
  image.set_faults({true, false, false, false, 0});
  auto job = run("/v1/images", image_body());
  check_failed_and_refunded(job, "provider_unavailable", "busy");
  BOOST_TEST(image.count("PUT", "/predictions/" + json_str(job, "id")) == 3u, "the first try and two retries");
}

BOOST_FIXTURE_TEST_CASE(a_container_whose_setup_failed_is_provider_unavailable, cog_fixture) {
  image.set_faults({false, true, false, false, 0});
  auto job = run("/v1/images", image_body());
  check_failed_and_refunded(job, "provider_unavailable", "Setup");
}

BOOST_FIXTURE_TEST_CASE(a_failure_inside_a_200_is_provider_error_with_the_models_error, cog_fixture) {
  image.set_faults({false, false, true, false, 0});
  auto job = run("/v1/images", image_body());
  check_failed_and_refunded(job, "provider_error", "CUDA out of memory");
}

BOOST_FIXTURE_TEST_CASE(an_oversized_output_is_refused, cog_fixture) {
  image.set_faults({false, false, false, false, 8u << 20}); // a 256x256 image is at most 1.25 MiB here
  auto job = run("/v1/images", image_body());
  check_failed_and_refunded(job, "provider_error", "over");
}

BOOST_FIXTURE_TEST_CASE(a_hang_is_provider_timeout_and_the_prediction_is_cancelled, short_deadline_cog_fixture) {
  image.set_faults({false, false, false, true, 0});
  auto job = run("/v1/images", image_body());
  check_failed_and_refunded(job, "provider_timeout", "did not finish");
  BOOST_TEST(wait_until([&] { return image.count("POST", "/predictions/" + json_str(job, "id") + "/cancel") == 1u; }, 5s));
}

BOOST_FIXTURE_TEST_CASE(a_restarted_container_that_lost_the_prediction_is_provider_unavailable, slow_cog_fixture) {
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  BOOST_REQUIRE(wait_until([&] { return image.running() == id; }, 10s));
  image.restart();
  auto job = wait_terminal(c, t.read.key, id, 30s);
  check_failed_and_refunded(job, "provider_unavailable", "lost");
  BOOST_TEST(image.count("PUT", "/predictions/" + id) == 1u, "never a PUT as a poll");
}

BOOST_FIXTURE_TEST_CASE(a_kill_9_mid_render_ends_the_job_exactly_once, slow_cog_fixture) {
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  BOOST_REQUIRE(wait_until([&] { return image.running() == id; }, 10s));
  svcd.kill9();
  svcd.start();
  auto c2 = api();
  auto job = wait_terminal(c2, t.read.key, id, 60s);
  c = std::move(c2);
  BOOST_TEST(json_str(job, "status") == "succeeded", job);
  BOOST_TEST(image.predictions().size() == 1u, "the resumed job joined the running prediction: one run");
  BOOST_TEST(terminal_events(id) == 1);
  auto b = get_balance(c, t.read.key);
  BOOST_TEST(b.held == 0);
  BOOST_TEST(b.available == 1000 - json_int(job, "cost.credits").value_or(0));
}

BOOST_FIXTURE_TEST_CASE(the_webhook_route_takes_only_calls_about_a_prediction_svcd_started, slow_cog_fixture) {
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  BOOST_REQUIRE(wait_until([&] { return image.predictions().size() == 1u; }, 10s));
  auto webhook = json_str(image.predictions()[0], "webhook");
  auto at = webhook.find("/cog/");
  BOOST_REQUIRE(at != std::string::npos);
  http_client engine_side(webhook.substr(0, at), foreign_server);
  auto path = webhook.substr(at, webhook.find('?') - at);
  std::string done = R"({"id":")" + id + R"(","status":"succeeded","output":[]})";
  auto r = engine_side.request("POST", path + "?token=" + std::string(64, '0'), {{"Content-Type", "application/json"}}, done);
  BOOST_TEST(r.status == 404, "a wrong token: " << r.summary());
  r = engine_side.request("POST", path, {{"Content-Type", "application/json"}}, done);
  BOOST_TEST(r.status == 404, "no token: " << r.summary());
  auto secret = read_file(svcd.data_dir() + "/url.secret");
  secret = secret.substr(0, secret.find('\n'));
  auto other = "img_00000000000000000000000000";
  r = engine_side.request("POST", "/cog/predictions/" + std::string{other} + "?token=" + svc::core::callback_token(secret, other),
                          {{"Content-Type", "application/json"}}, done);
  BOOST_TEST(r.status == 404, "a valid token of a prediction svcd did not start: " << r.summary());
  r = c.request("POST", webhook.substr(at), {{"Content-Type", "application/json"}}, done);
  BOOST_TEST(r.status == 404, "not on the API listener: " << r.summary());
  auto job = wait_terminal(c, t.read.key, id, 30s);
  BOOST_TEST(json_str(job, "status") == "succeeded", "the forged calls changed nothing: " << job);
  BOOST_TEST(json_size(job, "output_urls") == 1);
}

BOOST_AUTO_TEST_CASE(an_input_map_that_does_not_fit_the_model_stops_svcd_at_start) {
  cog_server image, video({cog_profile::coglet, cog_model_kind::video});
  auto text = cog_engines_yaml(image, video);
  check_refused_at_start(text,
                         {{"steps: num_inference_steps, num_outputs", "steps: num_steps, num_outputs", "num_steps"},
                          {"constants: {scheduler: K_EULER}", "constants: {sampler: K_EULER}", "sampler"},
                          {"inputs: {prompt: prompt,", "inputs: {prompt: seed,", "'seed' is integer"}},
                         "cog-sdxl", [](const std::string& path) { return cog_args(path, "30s"); });
}

BOOST_AUTO_TEST_CASE(a_callback_listener_on_every_address_needs_its_url) {
  cog_server image, video({cog_profile::coglet, cog_model_kind::video});
  svc::test::temp_file file(cog_engines_yaml(image, video), ".yaml");
  auto args = cog_args(file.path(), "30s");
  args.back() = "0.0.0.0:" + free_loopback_port();
  try {
    svcd_process svcd(args);
    BOOST_ERROR("svcd started with no URL for a callback listener on 0.0.0.0");
  } catch (const std::runtime_error& e) {
    std::string why = e.what();
    BOOST_TEST(why.find("--engine-callback-url") != std::string::npos, why);
  }
  args.insert(args.end(), {"--engine-callback-url", "http://127.0.0.1:" + args.back().substr(8)});
  svcd_process svcd(args); // with it, svcd starts
}

BOOST_AUTO_TEST_SUITE_END()
