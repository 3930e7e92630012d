// svcd with `--engines` on the shipped example file, its two ComfyUI servers
// replaced by stand-ins in this process (tests/support/comfyui_server): an
// image with a stacked LoRA reaches the engine as a LoraLoader chain with its
// seed, size and batch; img2img uploads its init image and loads it by the
// name the server returned; a video is the MP4 the engine made; cancels
// reach the engine's queue and its interrupt; each fault (a websocket that
// drops or goes silent, a restart that forgets the prompt, an OOM, a hang)
// ends the job as the brief says, refunded and with its event; a workflow
// that does not fit the server stops svcd at start; a `kill -9` mid-render
// ends the job exactly once.
#include <boost/test/unit_test.hpp>

#include <map>
#include <regex>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "comfyui_server.hpp"
#include "media_probe.hpp"
#include "support/engine_jobs.hpp"
#include "support/file_uploads.hpp"
#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/process.hpp"
#include "support/output_bytes.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_comfyui)

using namespace svc::e2e;
using svc::test::comfyui_faults;
using svc::test::comfyui_server;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

const std::string examples = SVC_EXAMPLES_DIR;

// The example engines file, its servers replaced by `gpu0` and `gpu1` and its
// workflow files named by absolute path; `edit` changes it further.
std::string engines_yaml(const comfyui_server& gpu0, const comfyui_server& gpu1) {
  auto text = read_file(examples + "/engines/comfyui.yaml");
  BOOST_REQUIRE(!text.empty());
  text = std::regex_replace(text, std::regex{"http://127\\.0\\.0\\.1:8188"}, gpu0.url());
  text = std::regex_replace(text, std::regex{"http://127\\.0\\.0\\.1:8189"}, gpu1.url());
  return std::regex_replace(text, std::regex{"file: comfyui/"}, "file: " + examples + "/engines/comfyui/");
}

// One render per job unless `attempts` says otherwise: most cases show what
// a fault does to a render, not a second one on the other engine.
std::vector<std::string> engine_args(const std::string& file, const std::string& timeout, int attempts = 1) {
  return {"--engines", file, "--remote-retries", "2", "--remote-backoff", "50ms", "--remote-connect-timeout", "2s",
          "--remote-timeout", timeout, "--engine-silence", "300ms", "--render-attempts", std::to_string(attempts),
          "--engine-probe-interval", "100ms"};
}

// Started before svcd, which checks its workflows against them at start.
struct with_engines {
  explicit with_engines(std::chrono::milliseconds step_time, const std::string& gpu0_credentials = "")
      : gpu0(step_time), gpu1(step_time), file(with_credentials(engines_yaml(gpu0, gpu1), gpu0_credentials), ".yaml") {}
  // gpu0's URL as `http://user:password@host:port` (a proxy's basic auth).
  std::string with_credentials(std::string text, const std::string& credentials) {
    if (credentials.empty())
      return text;
    auto url = gpu0.url();
    return std::regex_replace(text, std::regex{url}, "http://" + credentials + "@" + url.substr(7));
  }
  comfyui_server gpu0, gpu1;
  svc::test::temp_file file;
};

struct comfyui_fixture : with_engines, server_fixture {
  explicit comfyui_fixture(std::string timeout = "30s", std::chrono::milliseconds step_time = 20ms,
                           const std::string& gpu0_credentials = "", int attempts = 1)
      : with_engines(step_time, gpu0_credentials), server_fixture(engine_args(file.path(), timeout, attempts)) {}
  team_keys t = create_team_with_keys(1000);
  http_client c = api();

  // Every prompt either server accepted.
  std::vector<json::object> prompts() const {
    auto all = gpu0.prompts();
    for (auto& p : gpu1.prompts())
      all.push_back(p);
    return all;
  }
  std::size_t count(const std::string& method, const std::string& path) const {
    return gpu0.count(method, path) + gpu1.count(method, path);
  }
  void set_faults(comfyui_faults f) {
    gpu0.set_faults(f);
    gpu1.set_faults(f);
  }

  json::value run(const std::string& path, const json::object& body) { return run_engine_job(c, t, path, body); }
  void check_failed_and_refunded(const json::value& job, const std::string& code) {
    svc::e2e::check_failed_and_refunded(c, t, job, code);
  }
  int terminal_events(const std::string& id) { return svc::e2e::terminal_events(c, t.read.key, id); }
};

// The node of `class_type` in `prompt`s, or null.
const json::object* node_of(const json::object& prompt, std::string_view class_type) {
  for (auto& [id, node] : prompt)
    if (node.is_object() && json_str(node, "class_type") == class_type)
      return &node.as_object();
  return nullptr;
}

struct slow_fixture : comfyui_fixture {
  slow_fixture() : comfyui_fixture("30s", 200ms) {}
};
struct failover_fixture : comfyui_fixture {
  failover_fixture() : comfyui_fixture("30s", 200ms, "", 3) {}
};
struct short_deadline_fixture : comfyui_fixture {
  short_deadline_fixture() : comfyui_fixture("2s") {}
};

// A prompt of another client of the engine that takes minutes, so that ours waits in its queue.
void occupy(comfyui_server& server) {
  auto prompt = json::parse(read_file(examples + "/engines/comfyui/sdxl_text_to_image.json")).as_object();
  prompt["3"].as_object()["inputs"].as_object()["steps"] = 10000;
  prompt["5"].as_object()["inputs"].as_object()["width"] = 64;
  prompt["5"].as_object()["inputs"].as_object()["height"] = 64;
  http_client other(server.url(), foreign_server);
  json::object body{{"prompt", prompt}, {"client_id", "another-app"},
                    {"prompt_id", "00000000-0000-4000-8000-000000000001"}};
  auto r = other.request("POST", "/prompt", {{"Content-Type", "application/json"}}, json::serialize(body));
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  BOOST_REQUIRE(wait_until([&] { return !server.running().empty(); }, 5s));
}

} // namespace

BOOST_FIXTURE_TEST_CASE(an_image_with_stacked_loras_reaches_the_engine_as_a_lora_loader_chain, comfyui_fixture) {
  auto body = image_body("a lighthouse at dusk", 320, 256);
  body["seed"] = 1234;
  body["steps"] = 12;
  body["num_outputs"] = 2;
  body["loras"] = json::array{json::object{{"lora", "watercolor"}, {"weight", 0.8}},
                              json::object{{"lora", "neon-noir"}, {"weight", 0.5}}};
  auto job = run("/v1/images", body);
  BOOST_REQUIRE_MESSAGE(json_str(job, "status") == "succeeded", job);
  BOOST_TEST(json_str(job, "model") == "sdxl", job);

  auto sent = prompts();
  BOOST_REQUIRE(sent.size() == 1u);
  auto& p = sent[0];
  BOOST_TEST(json_str(p, "6.inputs.text") == "a lighthouse at dusk");
  BOOST_TEST(json_int(p, "3.inputs.seed") == 1234);
  BOOST_TEST(json_int(p, "3.inputs.steps") == 12);
  BOOST_TEST(json_int(p, "5.inputs.width") == 320);
  BOOST_TEST(json_int(p, "5.inputs.height") == 256);
  BOOST_TEST(json_int(p, "5.inputs.batch_size") == 2);
  // checkpoint -> watercolor -> neon -> sampler and both text encoders.
  std::vector<std::pair<std::string, const json::object*>> loaders;
  for (auto& [id, node] : p)
    if (json_str(node, "class_type") == "LoraLoader")
      loaders.emplace_back(std::string{id}, &node.as_object());
  BOOST_REQUIRE(loaders.size() == 2u);
  auto input_from = [](const json::object& node, const char* input) {
    auto& link = node.at("inputs").at(input).as_array();
    return std::string{link.at(0).as_string()};
  };
  const json::object* first = nullptr;
  const json::object* second = nullptr;
  std::string second_id;
  for (auto& [id, node] : loaders) {
    if (input_from(*node, "model") == "4")
      first = node;
    else
      second = node, second_id = id;
  }
  BOOST_REQUIRE(first);
  BOOST_REQUIRE(second);
  BOOST_TEST(json_str(*first, "inputs.lora_name") == "watercolor_sdxl.safetensors");
  BOOST_TEST(json_str(*second, "inputs.lora_name") == "neon_sdxl.safetensors");
  BOOST_TEST(first->at("inputs").at("strength_model").to_number<double>() == 0.8);
  BOOST_TEST(second->at("inputs").at("strength_model").to_number<double>() == 0.5);
  BOOST_TEST(input_from(p.at("3").as_object(), "model") == second_id, "the sampler takes the last LoRA's model");
  BOOST_TEST(input_from(p.at("6").as_object(), "clip") == second_id, "the prompt takes the last LoRA's clip");
  BOOST_TEST(input_from(p.at("7").as_object(), "clip") == second_id);

  BOOST_REQUIRE(json_size(job, "output_urls") == 2);
  for (int i = 0; i < 2; ++i) {
    auto r = c.get(target_of(json_str(job, "output_urls." + std::to_string(i))));
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
    BOOST_TEST(r.header_or_empty("Content-Type") == "image/png");
    auto size = png_dimensions(r.body);
    BOOST_REQUIRE(size);
    BOOST_TEST(size->width == 320);
    BOOST_TEST(size->height == 256);
  }
  BOOST_TEST(json_str(job, "cost.status") == "charged");
  BOOST_TEST(wait_until([&] { return gpu0.history_size() + gpu1.history_size() == 0; }, 5s),
             "the history entry is deleted once the outputs are fetched");
}

BOOST_FIXTURE_TEST_CASE(img2img_uploads_the_init_image_and_loads_it_by_the_returned_name, comfyui_fixture) {
  std::string error;
  auto jpeg = svc::test::lavfi_image("color=c=red:s=320x256", "jpg", error);
  BOOST_REQUIRE_MESSAGE(jpeg, error);
  auto file_id = json_str(upload_file_ok(c, t.write.key, *jpeg), "id");
  auto body = image_body("the same, in winter", 320, 256);
  body["init_image"] = file_id;
  auto job = run("/v1/images", body);
  BOOST_REQUIRE_MESSAGE(json_str(job, "status") == "succeeded", job);

  auto uploads = gpu0.uploads();
  for (auto& u : gpu1.uploads())
    uploads.push_back(u);
  BOOST_REQUIRE(uploads.size() == 1u);
  auto sent = prompts();
  BOOST_REQUIRE(sent.size() == 1u);
  auto* load = node_of(sent[0], "LoadImage");
  BOOST_REQUIRE(load);
  BOOST_TEST(json_str(*load, "inputs.image") == uploads[0], "the name the server returned");
  BOOST_TEST(json_int(sent[0], "11.inputs.width") == 320);
  BOOST_TEST(sent[0].at("3").at("inputs").at("denoise").to_number<double>() < 1.0, "a strength below 1");
}

BOOST_FIXTURE_TEST_CASE(a_video_is_the_mp4_the_engine_made, comfyui_fixture) {
  json::object body{{"prompt", "a harbour at dawn"}, {"duration_seconds", 1}, {"fps", 16},
                    {"width", 320}, {"height", 256}, {"seed", 99}};
  auto created = c.request("POST", "/v1/videos", with_key(t.write.key, {{"Content-Type", "application/json"}}),
                           json::serialize(body));
  BOOST_REQUIRE_MESSAGE(created.status == 201, created.summary());
  c.set_timeout(90s);
  auto job = c.get("/v1/videos/" + json_str(created.json(), "id"), with_key(t.read.key, {{"Prefer", "wait=60"}})).json();
  BOOST_REQUIRE_MESSAGE(json_str(job, "status") == "succeeded", job);
  BOOST_TEST(json_str(job, "model") == "wan-2.2", job);

  auto sent = gpu0.prompts();
  BOOST_TEST_REQUIRE(sent.size() == 1u, "the video model is served by gpu0 only");
  BOOST_TEST(gpu1.prompts().empty());
  BOOST_TEST(json_int(sent[0], "5.inputs.length") == 16);
  BOOST_TEST(json_int(sent[0], "13.inputs.fps") == 16);
  BOOST_TEST(json_int(sent[0], "3.inputs.seed") == 99);

  auto video = c.get(target_of(json_str(job, "output_urls.0")));
  BOOST_REQUIRE_MESSAGE(video.status == 200, video.summary());
  BOOST_TEST(video.header_or_empty("Content-Type") == "video/mp4");
  auto mismatch = svc::test::h264_mp4_mismatch(video.body, 320, 256, 16, 1.0);
  BOOST_TEST(mismatch.empty(), mismatch);
}

BOOST_FIXTURE_TEST_CASE(a_cancel_while_queued_deletes_the_prompt_from_the_engines_queue, comfyui_fixture) {
  occupy(gpu0);
  occupy(gpu1);
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  BOOST_REQUIRE(wait_until([&] { return gpu0.pending() + gpu1.pending() == 1; }, 10s));
  auto r = c.request("POST", "/v1/images/" + id + "/cancel", with_key(t.write.key));
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  BOOST_TEST(json_str(r.json(), "cost.status") == "refunded");
  BOOST_TEST(wait_until([&] { return gpu0.pending() + gpu1.pending() == 0; }, 5s), "our prompt left the queue");
  BOOST_TEST(count("POST", "/queue") >= 1u);
  BOOST_TEST(gpu0.running() == "00000000-0000-4000-8000-000000000001", "the other client's prompt runs on");
  BOOST_TEST(get_balance(c, t.read.key).available == 1000);
}

BOOST_FIXTURE_TEST_CASE(a_cancel_while_running_interrupts_that_prompt, slow_fixture) {
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  auto rendering = poll_image(
    c, t.read.key, id, [](const json::value& r) { return json_at(r, "progress")->to_number<double>() > 0; }, 20s);
  BOOST_TEST(json_str(rendering, "status") == "processing", "the engine's progress events show");
  auto r = c.request("POST", "/v1/images/" + id + "/cancel", with_key(t.write.key));
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  BOOST_TEST(wait_until([&] { return count("POST", "/interrupt") >= 1; }, 5s), "the GPU is told to stop");
  BOOST_TEST(wait_until([&] { return gpu0.running().empty() && gpu1.running().empty(); }, 5s));
  auto interrupts = gpu0.requests();
  for (auto& x : gpu1.requests())
    interrupts.push_back(x);
  bool named = false;
  for (auto& x : interrupts)
    named = named || (x.path == "/interrupt" && x.body.find("prompt_id") != std::string::npos);
  BOOST_TEST(named, "the interrupt names our prompt, not whatever runs");
  BOOST_TEST(get_balance(c, t.read.key).available == 1000);
}

BOOST_FIXTURE_TEST_CASE(admin_engines_shows_each_engine_and_the_job_holding_its_slot, slow_fixture) {
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  BOOST_REQUIRE(wait_until([&] { return !gpu0.running().empty() || !gpu1.running().empty(); }, 10s));
  auto holding = [&](const json::value& list) {
    std::map<std::string, std::vector<std::string>> by_engine;
    for (auto& e : json_at(list, "data")->as_array())
      for (auto& j : e.at("jobs").as_array())
        by_engine[json_str(e, "name")].push_back(std::string{j.as_string()});
    return by_engine;
  };
  auto r = admin().get("/admin/engines", admin_auth());
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  auto list = r.json();
  BOOST_TEST(json_size(list, "data") == 2, list);
  BOOST_TEST(json_str(list, "data.0.name") == "gpu0");
  BOOST_TEST(json_int(list, "data.0.slots") == 1);
  auto held = holding(list);
  BOOST_REQUIRE(held.size() == 1u);
  BOOST_TEST((held.begin()->second == std::vector<std::string>{id}));
  BOOST_TEST(held.begin()->first == (gpu0.running().empty() ? "gpu1" : "gpu0"), "the engine that runs it");
  BOOST_TEST(json_int(ctl_ok({"engine", "list"}), "data.1.slots") == 1, "svcctl engine list shows the same");
  BOOST_REQUIRE(c.request("POST", "/v1/images/" + id + "/cancel", with_key(t.write.key)).status == 200);
  BOOST_TEST(wait_until([&] { return holding(admin().get("/admin/engines", admin_auth()).json()).empty(); }, 10s),
             "its slot is free once the job ended");
}

BOOST_FIXTURE_TEST_CASE(a_dropped_or_silent_websocket_still_ends_through_the_history, comfyui_fixture) {
  for (auto fault : {comfyui_faults{true, false, false, false}, comfyui_faults{false, true, false, false}}) {
    set_faults(fault);
    auto job = run("/v1/images", image_body());
    BOOST_TEST(json_str(job, "status") == "succeeded", job);
    BOOST_TEST(json_size(job, "output_urls") == 1);
  }
  BOOST_TEST(count("GET", "/history") == 0u);
  auto requests = gpu0.requests();
  for (auto& x : gpu1.requests())
    requests.push_back(x);
  std::size_t polls = 0;
  for (auto& x : requests)
    polls += x.method == "GET" && x.path.rfind("/history/", 0) == 0;
  BOOST_TEST(polls >= 2u, "each found its end by polling its history");
}

BOOST_FIXTURE_TEST_CASE(a_restarted_engine_that_lost_the_prompt_is_provider_unavailable, slow_fixture) {
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  BOOST_REQUIRE(wait_until([&] { return !gpu0.running().empty() || !gpu1.running().empty(); }, 10s));
  gpu0.restart();
  gpu1.restart();
  auto job = wait_terminal(c, t.read.key, id, 30s);
  check_failed_and_refunded(job, "provider_unavailable");
}

BOOST_FIXTURE_TEST_CASE(a_render_lost_in_an_engine_restart_runs_again_on_the_other_engine, failover_fixture) {
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  BOOST_REQUIRE(wait_until([&] { return !gpu0.running().empty() || !gpu1.running().empty(); }, 10s));
  auto& lost = gpu0.running().empty() ? gpu1 : gpu0;
  auto& other = &lost == &gpu0 ? gpu1 : gpu0;
  lost.restart();
  auto job = wait_terminal(c, t.read.key, id, 30s);
  BOOST_REQUIRE_MESSAGE(json_str(job, "status") == "succeeded", job);
  BOOST_TEST(other.prompts().size() == 1u, "the second render ran on the other engine");
  BOOST_TEST(json_str(job, "cost.status") == "charged");
  BOOST_TEST(get_balance(c, t.read.key).available == 1000 - *json_int(job, "cost.credits"), "charged once");
  BOOST_TEST(terminal_events(id) == 1);
  auto lost_name = std::string{&lost == &gpu0 ? "gpu0" : "gpu1"}, other_name = std::string{&lost == &gpu0 ? "gpu1" : "gpu0"};
  auto m = admin().get("/metrics", admin_auth()).body;
  BOOST_TEST(m.find("\nsvc_engine_renders_total{engine=\"" + lost_name + "\",outcome=\"provider_unavailable\"} 1\n") !=
               std::string::npos, m);
  BOOST_TEST(m.find("\nsvc_engine_renders_total{engine=\"" + other_name + "\",outcome=\"succeeded\"} 1\n") !=
               std::string::npos);
}

BOOST_FIXTURE_TEST_CASE(an_out_of_memory_is_provider_error_with_its_exception_type, comfyui_fixture) {
  set_faults({false, false, true, false});
  auto job = run("/v1/images", image_body());
  check_failed_and_refunded(job, "provider_error");
  BOOST_TEST(json_str(job, "failure.message").find("OutOfMemoryError") != std::string::npos, job);
}

BOOST_FIXTURE_TEST_CASE(a_hang_is_provider_timeout_and_the_prompt_is_stopped, short_deadline_fixture) {
  set_faults({false, false, false, true});
  auto job = run("/v1/images", image_body());
  check_failed_and_refunded(job, "provider_timeout");
  BOOST_TEST(wait_until([&] { return count("POST", "/interrupt") >= 1; }, 5s));
  BOOST_TEST(wait_until([&] { return gpu0.running().empty() && gpu1.running().empty(); }, 5s));
}

BOOST_FIXTURE_TEST_CASE(a_200_with_node_errors_fails_and_its_prompt_does_not_run_on, slow_fixture) {
  comfyui_faults f;
  f.partial_node_errors = true;
  set_faults(f);
  auto job = run("/v1/images", image_body());
  check_failed_and_refunded(job, "provider_error");
  BOOST_TEST(json_str(job, "failure.message").find("SaveImage") != std::string::npos, job);
  BOOST_TEST(count("POST", "/queue") + count("POST", "/interrupt") >= 1u, "the prompt the engine queued is cancelled");
  BOOST_TEST(wait_until([&] { return gpu0.running().empty() && gpu1.running().empty(); }, 5s));
  BOOST_TEST(gpu0.pending() + gpu1.pending() == 0u);
}

BOOST_FIXTURE_TEST_CASE(previews_are_no_outputs, comfyui_fixture) {
  comfyui_faults f;
  f.previews = true;
  set_faults(f);
  auto job = run("/v1/images", image_body());
  BOOST_REQUIRE_MESSAGE(json_str(job, "status") == "succeeded", job);
  BOOST_TEST(json_size(job, "output_urls") == 1);
  auto requests = gpu0.requests();
  for (auto& x : gpu1.requests())
    requests.push_back(x);
  std::size_t views = 0, temp_views = 0;
  for (auto& x : requests) {
    views += x.path == "/view";
    temp_views += x.path == "/view" && x.query.find("type=temp") != std::string::npos;
  }
  BOOST_TEST(views == 1u);
  BOOST_TEST(temp_views == 0u, "the 64x64 preview was never fetched");
}

BOOST_FIXTURE_TEST_CASE(a_kill_9_mid_render_ends_the_job_exactly_once, slow_fixture) {
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  BOOST_REQUIRE(wait_until([&] { return !gpu0.running().empty() || !gpu1.running().empty(); }, 10s));
  svcd.kill9();
  svcd.start();
  auto c2 = api();
  auto job = wait_terminal(c2, t.read.key, id, 60s);
  BOOST_TEST(is_terminal_status(json_str(job, "status")), job);
  c = std::move(c2);
  BOOST_TEST(terminal_events(id) == 1);
  auto b = get_balance(c, t.read.key);
  BOOST_TEST(b.held == 0);
  BOOST_TEST(b.available == (json_str(job, "cost.status") == "charged" ? 1000 - json_int(job, "cost.credits").value_or(0) : 1000));
}

BOOST_FIXTURE_TEST_CASE(the_models_come_from_the_file_and_a_bad_one_is_refused, comfyui_fixture) {
  auto models = c.get("/v1/models", with_key(t.read.key)).json();
  std::vector<std::string> ids;
  for (auto& m : models.at("data").as_array())
    ids.push_back(json_str(m, "id"));
  BOOST_TEST((ids == std::vector<std::string>{"sdxl", "wan-2.2"}), models);
  auto body = image_body();
  body["model"] = "flux-dev";
  auto r = create_image(c, t.write.key, body);
  BOOST_TEST(is_error(r, 400, "invalid_parameter"), r.summary());
  BOOST_TEST(json_str(r.json(), "error.param") == "model");
  body["model"] = "wan-2.2";
  r = create_image(c, t.write.key, body);
  BOOST_TEST(is_error(r, 400, "invalid_parameter"), "a video model makes no stills: " << r.summary());
  BOOST_TEST(prompts().empty());
}

BOOST_FIXTURE_TEST_CASE(an_engines_headers_go_with_every_call_to_it, comfyui_fixture) {
  auto with_header = [](const comfyui_server& s) {
    std::size_t n = 0;
    for (auto& x : s.requests())
      n += x.authorization == "Bearer replace-me";
    return n;
  };
  BOOST_TEST(gpu1.count("GET", "/object_info") == 1u, "checked at start");
  BOOST_TEST(with_header(gpu1) == gpu1.requests().size());
  BOOST_TEST(with_header(gpu0) == 0u);
  BOOST_TEST(svcd.log_tail(400).find("replace-me") == std::string::npos, "never logged");
}

struct basic_auth_fixture : comfyui_fixture {
  basic_auth_fixture() : comfyui_fixture("30s", 20ms, "svc:s3cret") {}
};

BOOST_FIXTURE_TEST_CASE(a_urls_credentials_go_with_every_call_and_the_websocket, basic_auth_fixture) {
  json::object body{{"prompt", "a harbour at dawn"}, {"duration_seconds", 1}, {"fps", 16}, {"width", 320}, {"height", 256}};
  auto created = c.request("POST", "/v1/videos", with_key(t.write.key, {{"Content-Type", "application/json"}}),
                           json::serialize(body));
  BOOST_REQUIRE_MESSAGE(created.status == 201, created.summary());
  c.set_timeout(90s);
  auto job = c.get("/v1/videos/" + json_str(created.json(), "id"), with_key(t.read.key, {{"Prefer", "wait=60"}})).json();
  BOOST_REQUIRE_MESSAGE(json_str(job, "status") == "succeeded", "the video model runs on gpu0 only: " << job);
  bool socket_seen = false;
  for (auto& x : gpu0.requests()) {
    BOOST_TEST(x.authorization == "Basic c3ZjOnMzY3JldA==", x.method << " " << x.path);
    socket_seen = socket_seen || x.path == "/ws";
  }
  BOOST_TEST(socket_seen);
  BOOST_TEST(svcd.log_tail(400).find("s3cret") == std::string::npos, "never logged");
}

BOOST_AUTO_TEST_CASE(a_workflow_that_does_not_fit_the_server_stops_svcd_at_start) {
  comfyui_server gpu0, gpu1;
  auto text = engines_yaml(gpu0, gpu1);
  // A custom node the server lacks; a LoRA file it has not installed.
  auto workflow = read_file(examples + "/engines/comfyui/sdxl_text_to_image.json");
  auto custom = std::regex_replace(workflow, std::regex{"\"VAEDecode\""}, "\"VAEDecodeTiled\"");
  svc::test::temp_file custom_file(custom, ".json");
  check_refused_at_start(
    text,
    {{examples + "/engines/comfyui/sdxl_text_to_image.json", custom_file.path(), "VAEDecodeTiled"},
     {"file: neon_sdxl.safetensors", "file: neon_xl_v2.safetensors", "neon_xl_v2.safetensors"}},
    "gpu0", [](const std::string& path) { return engine_args(path, "30s"); });
}

// Engine `name` as GET /admin/engines shows it (null when it is not listed).
json::value engine_named(const server_fixture& f, const std::string& name) {
  auto r = f.admin().get("/admin/engines", f.admin_auth());
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  auto list = r.json();
  for (auto& e : json_at(list, "data")->as_array())
    if (json_str(e, "name") == name)
      return e;
  return nullptr;
}

bool engine_in_state(const server_fixture& f, const std::string& name, const std::string& state) {
  auto e = engine_named(f, name);
  return !e.is_null() && json_str(e, "state") == state;
}

json::object video_body() {
  return {{"prompt", "a harbour at dawn"}, {"duration_seconds", 1}, {"fps", 16}, {"width", 320}, {"height", 256}};
}

BOOST_FIXTURE_TEST_CASE(a_dead_engine_goes_down_its_render_runs_on_the_other_and_it_comes_back_up, failover_fixture) {
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  BOOST_REQUIRE(wait_until([&] { return !gpu0.running().empty() || !gpu1.running().empty(); }, 10s));
  auto& dead = gpu0.running().empty() ? gpu1 : gpu0;
  auto& other = &dead == &gpu0 ? gpu1 : gpu0;
  auto dead_name = std::string{&dead == &gpu0 ? "gpu0" : "gpu1"};
  dead.set_down(true);
  auto job = wait_terminal(c, t.read.key, id, 30s);
  BOOST_REQUIRE_MESSAGE(json_str(job, "status") == "succeeded", job);
  BOOST_TEST(other.prompts().size() == 1u, "the render ran again on the other engine");
  BOOST_TEST(get_balance(c, t.read.key).available == 1000 - *json_int(job, "cost.credits"), "charged once");
  BOOST_TEST(terminal_events(id) == 1);
  BOOST_REQUIRE(wait_until([&] { return engine_in_state(*this, dead_name, "down"); }, 10s));
  auto shown = engine_named(*this, dead_name);
  BOOST_TEST(!json_str(shown, "last_error").empty(), shown);
  BOOST_TEST(json_int(shown, "renders_failed") == 1, shown);
  BOOST_TEST(json_int(engine_named(*this, &other == &gpu0 ? "gpu0" : "gpu1"), "renders_done") == 1);

  auto next = run("/v1/images", image_body("a second box"));
  BOOST_TEST(json_str(next, "status") == "succeeded", next);
  BOOST_TEST(other.prompts().size() == 2u, "a down engine is given no render");
  dead.set_down(false);
  BOOST_TEST(wait_until([&] { return engine_in_state(*this, dead_name, "up"); }, 10s), "one passed probe brings it back");
}

BOOST_FIXTURE_TEST_CASE(a_drained_engine_holds_back_the_model_only_it_serves_until_it_is_resumed, comfyui_fixture) {
  auto drained = ctl_ok({"engine", "drain", "gpu0"});
  BOOST_TEST(json_str(drained, "state") == "draining", drained);
  auto video = c.request("POST", "/v1/videos", with_key(t.write.key, {{"Content-Type", "application/json"}}),
                         json::serialize(video_body()));
  BOOST_REQUIRE_MESSAGE(video.status == 201, video.summary());
  auto video_id = json_str(video.json(), "id");
  auto image = run("/v1/images", image_body());
  BOOST_TEST(json_str(image, "status") == "succeeded", "an image still runs on gpu1: " << image);
  BOOST_TEST(gpu0.prompts().empty(), "nothing goes to the drained gpu0");
  BOOST_TEST(json_str(c.get("/v1/videos/" + video_id, with_key(t.read.key)).json(), "status") == "queued",
             "the video, which only gpu0 serves, waits rather than fails");
  BOOST_TEST(json_str(ctl_ok({"engine", "resume", "gpu0"}), "state") == "up");
  c.set_timeout(90s);
  auto job = c.get("/v1/videos/" + video_id, with_key(t.read.key, {{"Prefer", "wait=60"}})).json();
  BOOST_TEST(json_str(job, "status") == "succeeded", job);
  BOOST_TEST(gpu0.prompts().size() == 1u);
  auto unknown = ctl({"engine", "drain", "gpu9"});
  BOOST_TEST(unknown.exit_code == 1, unknown.err);
  BOOST_TEST(json_str(unknown.err_json, "error.code") == "resource_not_found", unknown.err);
}

BOOST_FIXTURE_TEST_CASE(an_engine_added_at_run_time_takes_work_and_a_restart_keeps_the_changes, comfyui_fixture) {
  comfyui_server gpu2(20ms);
  auto refused = [&](std::vector<std::string> args, const std::string& param) {
    auto r = ctl(args);
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(json_str(r.err_json, "error.param") == param, r.err);
  };
  refused({"engine", "add", "--name", "gpu2", "--kind", "comfyui", "--url", gpu2.url(), "--models", "flux"}, "models");
  refused({"engine", "add", "--name", "gpu2", "--kind", "cog", "--url", gpu2.url(), "--models", "sdxl"}, "models");
  refused({"engine", "add", "--name", "gpu0", "--kind", "comfyui", "--url", gpu2.url(), "--models", "sdxl"}, "name");
  refused({"engine", "add", "--name", "gpu2", "--kind", "comfyui", "--url", "https://x", "--models", "sdxl"}, "url");
  refused({"engine", "add", "--name", "gpu2", "--kind", "comfyui", "--url", gpu2.url(), "--models", "sdxl",
           "--slots", "65"}, "slots");
  auto added = ctl_ok({"engine", "add", "--name", "gpu2", "--kind", "comfyui", "--url", gpu2.url(), "--models", "sdxl",
                       "--header", "X-Proxy-Token: hush-hush"});
  BOOST_TEST(json_str(added, "state") == "up", added);
  BOOST_TEST(json_str(added, "url") == gpu2.url());
  ctl_ok({"engine", "drain", "gpu0"});
  ctl_ok({"engine", "drain", "gpu1"});
  auto job = run("/v1/images", image_body());
  BOOST_TEST(json_str(job, "status") == "succeeded", job);
  BOOST_TEST(gpu2.prompts().size() == 1u, "the one engine not drained, added at run time, ran it");
  BOOST_TEST(gpu0.prompts().size() + gpu1.prompts().size() == 0u);

  BOOST_REQUIRE(svcd.restart() == 0);
  c = api();
  BOOST_TEST(!engine_named(*this, "gpu2").is_null(), "an added engine outlives a restart");
  BOOST_TEST(engine_in_state(*this, "gpu0", "draining"), "so does a drain");
  auto again = run("/v1/images", image_body("after the restart"));
  BOOST_TEST(json_str(again, "status") == "succeeded", again);
  BOOST_TEST(gpu2.prompts().size() == 2u);

  BOOST_TEST(json_bool(ctl_ok({"engine", "remove", "gpu2"}), "deleted").value_or(false));
  ctl_ok({"engine", "remove", "gpu1"});
  BOOST_REQUIRE(svcd.restart() == 0);
  BOOST_TEST(engine_named(*this, "gpu2").is_null(), "a removed engine stays out");
  BOOST_TEST(engine_named(*this, "gpu1").is_null(), "also one of the file's");
  BOOST_TEST(!engine_named(*this, "gpu0").is_null());
  BOOST_TEST(svcd.log_tail(400).find("hush-hush") == std::string::npos, "an engine's header is never logged");
}

BOOST_AUTO_TEST_SUITE_END()
