// svc-engine-bench: the time svcd adds to an image job beyond the engine's
// own render time, through ComfyUI and through Cog. A real svcd (temp data
// dir, loopback) renders on a stand-in with a fixed render time
// (tests/support: comfyui_server, cog_server); for each job,
//   added = (POST /v1/images sent .. its long-poll GET answered `succeeded`)
//           - (the engine's own time: POST /prompt or the prediction's create
//              .. its end, as the stand-in measured it).
// Jobs run one after another, so nothing queues. Prints p50/p90/p99/max per
// engine, and the command that reproduces them.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "cog_server.hpp"
#include "bench/stand_in_bench.hpp"
#include "comfyui_server.hpp"
#include "support/http_client.hpp"
#include "support/json_util.hpp"
#include "support/svcd_process.hpp"
#include "core/time_format.hpp"

namespace json = boost::json;
using std::chrono::duration;
using std::chrono::milliseconds;
using std::chrono::steady_clock;
using svc::e2e::http_client;
using svc::e2e::svcd_process;

namespace {

using svc::bench::percentile;
using svc::bench::write_temp;

struct bench_args {
  int jobs = 200;
  int render_ms = 100;
  std::string examples;
};

std::string comfyui_yaml(const std::string& url, const std::string& examples) {
  return "engines:\n  - {name: gpu0, kind: comfyui, url: " + url + ", slots: 1}\n"
         "models:\n  - id: sdxl\n    kind: image\n    default: true\n    engines: [gpu0]\n"
         "    prices: {\"2026-01-15\": {image: 1, image_steps: 0, lora: 0}}\n"
         "    workflows:\n      text_to_image:\n        file: " + examples + "/engines/comfyui/sdxl_text_to_image.json\n"
         "        bind: {prompt: 6.text, negative_prompt: 7.text, seed: 3.seed, steps: 3.steps,\n"
         "               width: 5.width, height: 5.height, num_outputs: 5.batch_size}\n";
}

std::string cog_yaml(const std::string& url) {
  return "engines:\n  - {name: cog0, kind: cog, url: " + url + ", slots: 1}\n"
         "models:\n  - id: sdxl\n    kind: image\n    default: true\n    engines: [cog0]\n"
         "    prices: {\"2026-01-15\": {image: 1, image_steps: 0, lora: 0}}\n"
         "    inputs: {prompt: prompt, seed: seed, width: width, height: height, steps: num_inference_steps,\n"
         "             num_outputs: num_outputs}\n";
}

std::string admin_post(svcd_process& svcd, const std::string& path, const json::object& body) {
  http_client admin(svcd.admin_url(), svc::e2e::foreign_server);
  auto r = admin.request("POST", path,
                         {{"Authorization", "Bearer " + svcd.admin_token()}, {"Content-Type", "application/json"}},
                         json::serialize(body));
  if (r.status != 201 && r.status != 200)
    throw std::runtime_error(path + ": " + r.summary());
  return r.body;
}

// A write key of a fresh team with credits for every job.
std::string team_key(svcd_process& svcd, int jobs) {
  auto team = json::parse(admin_post(svcd, "/admin/teams", {{"name", "bench"}, {"owner_email", "bench@example.com"},
                                                            {"credits", jobs * 10}}));
  std::string id{team.at("id").as_string()};
  // One job after another must never wait on a bucket.
  for (const char* bucket : {"images_post", "reads"})
    admin_post(svcd, "/admin/teams/" + id + "/limits", {{"bucket", bucket}, {"capacity", 100000}, {"per_minute", 6000000}});
  auto key = json::parse(admin_post(svcd, "/admin/keys", {{"team_id", id}, {"scope", "write"}}));
  return std::string{key.at("key").as_string()};
}

// Where a job's time went, by its record's timestamps (milliseconds apart).
struct job_times {
  double total = 0;        ///< POST sent .. long-poll answered, seconds
  double admitted_ms = 0;  ///< created_at .. started_at: admission, dispatch to a worker
  double finished_ms = 0;  ///< started_at .. completed_at: the render, with the engine's own time
};

double ms_between(const json::value& job, const char* from, const char* to) {
  auto a = svc::core::parse_iso8601(svc::e2e::json_str(job, from));
  auto b = svc::core::parse_iso8601(svc::e2e::json_str(job, to));
  return a && b ? duration<double, std::milli>(*b - *a).count() : 0.0;
}

// Runs `a.jobs` jobs on a svcd with `engines_yaml`; how long each took.
std::vector<job_times> job_seconds(const std::string& engines_yaml, std::vector<std::string> extra, const bench_args& a) {
  auto file = write_temp(engines_yaml, ".yaml");
  std::vector<std::string> args{"--engines", file};
  args.insert(args.end(), extra.begin(), extra.end());
  svcd_process svcd(args);
  auto key = team_key(svcd, a.jobs);
  http_client api(svcd.api_url(), svc::e2e::foreign_server);
  std::vector<job_times> out;
  for (int i = 0; i < a.jobs; ++i) {
    json::object body{{"prompt", "a plain grey box"}, {"width", 256}, {"height", 256}, {"steps", 10}, {"seed", i}};
    auto t0 = steady_clock::now();
    auto created = api.request("POST", "/v1/images", {{"X-Api-Key", key}, {"Content-Type", "application/json"}},
                               json::serialize(body));
    if (created.status != 201)
      throw std::runtime_error("create: " + created.summary());
    auto id = svc::e2e::json_str(created.json(), "id");
    auto done = api.get("/v1/images/" + id, {{"X-Api-Key", key}, {"Prefer", "wait=30"}});
    auto t1 = steady_clock::now();
    if (svc::e2e::json_str(done.json(), "status") != "succeeded")
      throw std::runtime_error("job " + id + ": " + done.body);
    auto job = done.json();
    out.push_back({duration<double>(t1 - t0).count(), ms_between(job, "created_at", "started_at"),
                   ms_between(job, "started_at", "completed_at")});
  }
  std::remove(file.c_str());
  return out;
}

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (auto x : v)
    sum += x;
  return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

void report(const std::string& engine, const std::vector<job_times>& jobs, const std::vector<double>& render) {
  if (jobs.size() != render.size())
    throw std::runtime_error(engine + ": " + std::to_string(render.size()) + " engine times for " +
                             std::to_string(jobs.size()) + " jobs");
  std::vector<double> added, admitted, around_render, http;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    added.push_back((jobs[i].total - render[i]) * 1000);
    admitted.push_back(jobs[i].admitted_ms);
    around_render.push_back(jobs[i].finished_ms - render[i] * 1000);
    http.push_back(jobs[i].total * 1000 - jobs[i].admitted_ms - jobs[i].finished_ms);
  }
  std::printf("%-8s jobs=%zu engine p50=%.1f ms | added p50=%.2f ms p90=%.2f ms p99=%.2f ms max=%.2f ms\n",
              engine.c_str(), added.size(), percentile(render, 0.5) * 1000, percentile(added, 0.5),
              percentile(added, 0.9), percentile(added, 0.99), percentile(added, 1.0));
  std::printf("%-8s   mean split (record timestamps, ms resolution): admission+dispatch %.2f ms, "
              "around the engine %.2f ms, create answer+long poll %.2f ms\n",
              "", mean(admitted), mean(around_render), mean(http));
}

} // namespace

int main(int argc, char** argv) {
  bench_args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--jobs") a.jobs = std::stoi(v);
    else if (k == "--render-ms") a.render_ms = std::stoi(v);
    else if (k == "--examples") a.examples = v;
    else {
      std::cerr << "usage: svc-engine-bench --examples DIR [--jobs N] [--render-ms MS]\n";
      return 2;
    }
  }
  if (a.examples.empty() || a.jobs < 1 || a.render_ms < 10) {
    std::cerr << "usage: svc-engine-bench --examples DIR [--jobs N] [--render-ms MS]\n";
    return 2;
  }
  try {
    {
      svc::test::comfyui_server gpu(milliseconds{a.render_ms / 10}); // 10 steps per job
      auto total = job_seconds(comfyui_yaml(gpu.url(), a.examples), {}, a);
      report("comfyui", total, gpu.render_seconds());
    }
    {
      svc::test::cog_options o;
      o.render_time = milliseconds{a.render_ms};
      svc::test::cog_server cog(o);
      auto total = job_seconds(cog_yaml(cog.url()), {"--engine-callback-listen", "127.0.0.1:0"}, a);
      report("cog", total, cog.render_seconds());
    }
  } catch (const std::exception& e) {
    std::cerr << "svc-engine-bench: " << e.what() << "\n";
    return 1;
  }
  std::printf("reproduce: bench/run-engine-bench   (JOBS=%d RENDER_MS=%d)\n", a.jobs, a.render_ms);
  return 0;
}
