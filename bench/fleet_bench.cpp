// svc-fleet-bench: one svcd scheduling a fleet of ComfyUI stand-ins
// (tests/support/comfyui_server, one slot each, each render 200 ms +-20%)
// for four heavy teams (2,000 jobs each, weights 1, 1, 1 and 2, all queued
// at the start) and 46 light teams (20 jobs each, spread over the first
// minute). Measured:
// - slot utilisation while work waits: the stand-ins' own render spans over
//   the time from the first render to the last one's start, per live engine;
// - each heavy team's share of engine seconds (its jobs' started_at ..
//   completed_at) while all four are backlogged, against its weight's share;
// - light teams' queue wait (created_at .. started_at), p50/p95/max;
// - each engine's idle time between two renders (one prompt's end .. the
//   next POST /prompt, as the stand-in saw them), mean/p50/p99: what svcd
//   takes to learn the engine is free and send it the next job;
// - one engine killed mid-run: the time until the jobs it held run again
//   elsewhere, and afterwards every job succeeded and each team was charged
//   exactly its jobs' credits.
// A second run mixes videos of ten times an image's engine seconds into the
// first heavy team's jobs; its share in engine seconds must hold.
// Prints the figures and the command that reproduces them; writes CSV files
// and report.html (utilisation over time, queue wait per team) to --out.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <boost/json.hpp>

#include "bench/load/svg_chart.hpp"
#include "bench/stand_in_bench.hpp"
#include "comfyui_server.hpp"
#include "core/time_format.hpp"
#include "support/http_client.hpp"
#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/list_pages.hpp"
#include "support/svcd_process.hpp"

namespace json = boost::json;
using std::chrono::duration;
using std::chrono::milliseconds;
using steady = std::chrono::steady_clock;
using svc::e2e::http_client;
using svc::e2e::json_str;
using svc::e2e::svcd_process;

namespace {

using svc::bench::percentile;
using svc::bench::write_temp;

struct fleet_args {
  int engines = 16;
  int heavy_jobs = 2000;
  int light_teams = 46;
  int light_jobs = 20;
  int light_spread_s = 60;
  int step_ms = 20;           ///< per sampler step; an image has 8..12 steps (200 ms +-20%), a video 100
  std::string examples, out = ".";
};

// --- the fleet

// The example video workflow with 100 sampler steps (no request field sets
// them): ten times an image's engine seconds on the stand-in.
std::string long_video_workflow(const std::string& ex) {
  std::ifstream in(ex + "/engines/comfyui/wan_video.json");
  std::stringstream text;
  text << in.rdbuf();
  auto graph = json::parse(text.str()).as_object();
  graph["3"].as_object()["inputs"].as_object()["steps"] = 100;
  return write_temp(json::serialize(graph), ".json");
}

// Every engine serves an image model and a video model, one credit a job.
std::string engines_yaml(const std::vector<std::unique_ptr<svc::test::comfyui_server>>& gpus, const std::string& ex,
                         const std::string& video_workflow) {
  std::string names, text = "engines:\n";
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    text += "  - {name: gpu" + std::to_string(i) + ", kind: comfyui, url: " + gpus[i]->url() + ", slots: 1}\n";
    names += (i ? ", gpu" : "gpu") + std::to_string(i);
  }
  return text + "models:\n"
                "  - id: sdxl\n    kind: image\n    default: true\n    engines: [" + names + "]\n"
                "    prices: {\"2026-01-15\": {image: 1, image_steps: 0, lora: 0}}\n"
                "    workflows:\n      text_to_image:\n        file: " + ex + "/engines/comfyui/sdxl_text_to_image.json\n"
                "        bind: {prompt: 6.text, negative_prompt: 7.text, seed: 3.seed, steps: 3.steps,\n"
                "               width: 5.width, height: 5.height, num_outputs: 5.batch_size}\n"
                "  - id: wan\n    kind: video\n    default: true\n    engines: [" + names + "]\n"
                "    size: {default: 256x256, max: 512x512}\n    max_steps: 100\n"
                "    duration: {default: 1, max: 2}\n    fps: {default: 8, min: 8, max: 16}\n"
                "    tolerance: {frames: 1, seconds: 0.2}\n"
                "    prices: {\"2026-09-01\": {video: 1, lora: 0}}\n"
                "    workflows:\n      video:\n        file: " + video_workflow + "\n"
                "        bind: {prompt: 6.text, negative_prompt: 7.text, seed: 3.seed,\n"
                "               width: 5.width, height: 5.height, frames: 5.length, fps: 13.fps}\n";
}

json::value admin_call(svcd_process& svcd, const std::string& method, const std::string& path,
                       const json::object& body = {}) {
  http_client admin(svcd.admin_url(), svc::e2e::foreign_server);
  auto r = admin.request(method, path, {{"Authorization", "Bearer " + svcd.admin_token()}, {"Content-Type", "application/json"}},
                         method == "GET" ? std::string{} : json::serialize(body));
  if (r.status != 201 && r.status != 200)
    throw std::runtime_error(method + " " + path + ": " + r.summary());
  return r.json();
}

struct team {
  std::string name, id, key;
  double weight = 1;
  bool heavy = false;
  int jobs = 0;
  int64_t credits = 0;
};

team make_team(svcd_process& svcd, std::string name, bool heavy, double weight, int jobs) {
  team t{std::move(name), {}, {}, weight, heavy, jobs, jobs * 10 + 100};
  t.id = json_str(admin_call(svcd, "POST", "/admin/teams", {{"name", t.name}, {"owner_email", "bench@example.com"},
                                                             {"credits", t.credits}}), "id");
  // The queue is what is measured: no create or read may wait on a rate bucket.
  for (const char* bucket : {"images_post", "reads"})
    admin_call(svcd, "POST", "/admin/teams/" + t.id + "/limits",
               {{"bucket", bucket}, {"capacity", 100000}, {"per_minute", 6000000}});
  if (weight != 1)
    admin_call(svcd, "POST", "/admin/teams/" + t.id + "/renders", {{"weight", weight}});
  t.key = json_str(admin_call(svcd, "POST", "/admin/keys", {{"team_id", t.id}, {"scope", "full"}}), "key");
  return t;
}

// --- creating the work

struct created {
  std::string id;
  bool video = false;
};

created create_job(http_client& api, const team& t, std::mt19937& rng, bool video) {
  std::uniform_int_distribution<int> steps(8, 12);
  json::object body{{"prompt", "a plain grey box"}, {"seed", static_cast<int64_t>(rng() % 100000)}};
  if (video) { // ten times an image's engine seconds (its workflow's 100 steps)
    body["duration_seconds"] = 1;
    body["fps"] = 8;
  } else {
    body["width"] = 256;
    body["height"] = 256;
    body["steps"] = steps(rng);
  }
  auto r = api.request("POST", video ? "/v1/videos" : "/v1/images",
                       {{"X-Api-Key", t.key}, {"Content-Type", "application/json"}}, json::serialize(body));
  if (r.status != 201)
    throw std::runtime_error("create for " + t.name + ": " + r.summary());
  return {json_str(r.json(), "id"), video};
}

// --- reading the results

struct job_row {
  std::string team;
  bool video = false;
  std::string status;
  double created = 0, started = 0, completed = 0; ///< Unix seconds
  int64_t credits = 0;
  bool charged = false;
  std::string failure; ///< its code, when it did not succeed
};

double unix_s(const json::value& job, const char* field) {
  auto t = svc::core::parse_iso8601(json_str(job, field));
  return t ? duration<double>(t->time_since_epoch()).count() : 0.0;
}

std::vector<job_row> rows_of(http_client& api, const team& t) {
  std::vector<job_row> out;
  for (const char* path : {"/v1/images", "/v1/videos"})
    for (auto& j : svc::e2e::all_pages(api, t.key, path))
      out.push_back({t.name, std::string{path} == "/v1/videos", json_str(j, "status"), unix_s(j, "created_at"),
                     unix_s(j, "started_at"), unix_s(j, "completed_at"), svc::e2e::json_int(j, "cost.credits").value_or(0),
                     json_str(j, "cost.status") == "charged", json_str(j, "failure.code")});
  return out;
}

double overlap(double a0, double a1, double b0, double b1) { return std::max(0.0, std::min(a1, b1) - std::max(a0, b0)); }

// --- one run

struct run_figures {
  double dispatched_p50_ms = 0, dispatched_p99_ms = 0, sent_p50_ms = 0;
  double utilisation = 0, gap_mean_ms = 0, gap_p50_ms = 0, gap_p99_ms = 0, light_p50 = 0, light_p95 = 0, light_max = 0;
  double kill_restart_s = -1;
  std::map<std::string, double> share, target;
  int lost = 0, mischarged = 0, jobs = 0;
  std::map<std::string, int> ends; ///< jobs that did not succeed, by status and failure code
};

run_figures run(const fleet_args& a, const std::string& scenario, bool videos, bool kill_one) {
  std::vector<std::unique_ptr<svc::test::comfyui_server>> gpus;
  for (int i = 0; i < a.engines; ++i)
    gpus.push_back(std::make_unique<svc::test::comfyui_server>(milliseconds{a.step_ms}));
  auto workflow = long_video_workflow(a.examples);
  auto file = write_temp(engines_yaml(gpus, a.examples, workflow), ".yaml");
  svcd_process svcd({"--engines", file, "--engine-probe-interval", "500ms", "--remote-retries", "1", "--remote-backoff",
                     "50ms", "--remote-connect-timeout", "1s", "--engine-silence", "300ms", "--queue-ttl", "1h",
                     "--request-deadline", "30s"});
  std::vector<team> teams;
  const double heavy_weights[] = {1, 1, 1, 2};
  for (int i = 0; i < 4; ++i)
    teams.push_back(make_team(svcd, "heavy-" + std::to_string(i), true, heavy_weights[i], a.heavy_jobs));
  for (int i = 0; i < a.light_teams; ++i)
    teams.push_back(make_team(svcd, "light-" + std::to_string(i), false, 1, a.light_jobs));

  auto t0 = steady::now();
  std::atomic<int> heavy_done{0};
  std::vector<std::thread> creators;
  std::vector<std::string> failures;
  std::mutex failures_mutex;
  auto failed = [&](const std::string& why) {
    std::lock_guard lock(failures_mutex);
    failures.push_back(why);
  };
  for (int h = 0; h < 4; ++h)
    creators.emplace_back([&, h] {
      try {
        http_client api(svcd.api_url(), svc::e2e::foreign_server);
        std::mt19937 rng(static_cast<unsigned>(h + 1));
        for (int i = 0; i < a.heavy_jobs; ++i)
          create_job(api, teams[h], rng, videos && h == 0 && i % 10 == 9);
      } catch (const std::exception& e) {
        failed(e.what());
      }
      ++heavy_done;
    });
  creators.emplace_back([&] {
    try {
      http_client api(svcd.api_url(), svc::e2e::foreign_server);
      std::mt19937 rng(99);
      std::uniform_real_distribution<double> at(0, a.light_spread_s);
      std::vector<std::pair<double, std::size_t>> plan;
      for (std::size_t t = 4; t < teams.size(); ++t)
        for (int i = 0; i < a.light_jobs; ++i)
          plan.push_back({at(rng), t});
      std::sort(plan.begin(), plan.end());
      for (auto& [when, t] : plan) {
        std::this_thread::sleep_until(t0 + duration<double>(when));
        create_job(api, teams[t], rng, false);
      }
    } catch (const std::exception& e) {
      failed(e.what());
    }
  });

  // Kill one engine a third of the way into the heavy backlog; note the jobs it held.
  std::vector<std::string> held_at_kill;
  steady::time_point killed_at{};
  double killed_unix = 0;
  std::size_t dead = gpus.size();
  if (kill_one) {
    while (heavy_done < 4)
      std::this_thread::sleep_for(milliseconds{50});
    std::this_thread::sleep_for(duration<double>(0.3 * a.heavy_jobs * 4 * 0.2 / a.engines));
    dead = 3;
    auto engines = admin_call(svcd, "GET", "/admin/engines");
    for (auto& e : engines.at("data").as_array())
      if (json_str(e, "name") == "gpu3")
        for (auto& j : e.at("jobs").as_array())
          held_at_kill.emplace_back(j.as_string());
    gpus[dead]->set_down(true);
    killed_at = steady::now();
    killed_unix = duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  }
  run_figures f;
  if (!held_at_kill.empty()) { // until each runs again elsewhere (or ends)
    http_client api(svcd.api_url(), svc::e2e::foreign_server);
    double worst = 0;
    for (auto& id : held_at_kill)
      for (auto& t : teams) {
        if (api.get("/v1/images/" + id, {{"X-Api-Key", t.key}}).status != 200)
          continue; // another team's
        for (;;) {
          auto j = api.get("/v1/images/" + id, {{"X-Api-Key", t.key}}).json();
          if (unix_s(j, "started_at") > killed_unix || svc::e2e::is_terminal_status(json_str(j, "status"))) {
            worst = std::max(worst, duration<double>(steady::now() - killed_at).count());
            break;
          }
          std::this_thread::sleep_for(milliseconds{10});
        }
        break;
      }
    f.kill_restart_s = worst;
  }
  for (auto& c : creators)
    c.join();
  if (!failures.empty())
    throw std::runtime_error(failures.front());
  // Every job ends: the fleet is idle and the queue empty.
  http_client api(svcd.api_url(), svc::e2e::foreign_server);
  for (;;) {
    auto o = admin_call(svcd, "GET", "/admin/overview");
    if (svc::e2e::json_int(o, "renders.queued").value_or(1) == 0 && svc::e2e::json_int(o, "renders.running").value_or(1) == 0)
      break;
    std::this_thread::sleep_for(milliseconds{200});
  }

  // Utilisation while work waits, from the engines' own spans.
  steady::time_point first = steady::time_point::max(), last_start{};
  for (auto& g : gpus)
    for (auto& s : g->render_spans()) {
      first = std::min(first, s.accepted);
      last_start = std::max(last_start, s.accepted);
    }
  auto secs = [&](steady::time_point t) { return duration<double>(t - t0).count(); };
  double w0 = secs(first), w1 = secs(last_start), busy = 0, capacity = 0;
  std::vector<double> gaps, dispatched, sent;
  int buckets = static_cast<int>(w1) + 1;
  std::vector<double> busy_per_s(static_cast<std::size_t>(buckets + 1), 0.0), live_per_s(busy_per_s.size(), 0.0);
  for (std::size_t g = 0; g < gpus.size(); ++g) {
    double alive_until = g == dead ? secs(killed_at) : w1;
    capacity += std::max(0.0, alive_until - w0);
    for (int b = 0; b <= buckets; ++b)
      live_per_s[static_cast<std::size_t>(b)] += overlap(b, b + 1, w0, std::min(alive_until, w1));
    for (auto& s : gpus[g]->render_spans()) {
      busy += overlap(secs(s.accepted), secs(s.ended), w0, std::min(alive_until, w1));
      for (int b = 0; b <= buckets; ++b)
        busy_per_s[static_cast<std::size_t>(b)] += overlap(b, b + 1, secs(s.accepted), std::min(secs(s.ended), w1));
    }
    // Idle gaps: one prompt's end .. the next one's POST /prompt, while work waited.
    auto spans = gpus[g]->render_spans();
    std::sort(spans.begin(), spans.end(), [](auto& x, auto& y) { return x.accepted < y.accepted; });
    auto calls = gpus[g]->requests();
    for (std::size_t i = 1; i < spans.size(); ++i) {
      if (secs(spans[i].accepted) > w1)
        continue;
      gaps.push_back(duration<double, std::milli>(spans[i].accepted - spans[i - 1].ended).count());
      // Where the gap went: the next job dispatched (its websocket opened), then its prompt sent.
      steady::time_point socket{};
      for (auto& c : calls)
        if (c.at >= spans[i - 1].ended && c.at <= spans[i].accepted && c.method == "GET" && c.path == "/ws")
          socket = c.at;
      if (socket != steady::time_point{}) {
        dispatched.push_back(duration<double, std::milli>(socket - spans[i - 1].ended).count());
        sent.push_back(duration<double, std::milli>(spans[i].accepted - socket).count());
      }
    }
  }
  f.utilisation = capacity > 0 ? busy / capacity : 0;
  f.gap_p50_ms = percentile(gaps, 0.5);
  f.dispatched_p50_ms = percentile(dispatched, 0.5);
  f.dispatched_p99_ms = percentile(dispatched, 0.99);
  f.sent_p50_ms = percentile(sent, 0.5);
  f.gap_mean_ms = gaps.empty() ? 0 : std::accumulate(gaps.begin(), gaps.end(), 0.0) / static_cast<double>(gaps.size());
  f.gap_p99_ms = percentile(gaps, 0.99);

  // Shares and waits, from the job records.
  std::vector<job_row> rows;
  for (auto& t : teams) {
    auto mine = rows_of(api, t);
    int64_t spent = 0;
    for (auto& r : mine) {
      f.lost += r.status != "succeeded";
      if (r.status != "succeeded")
        ++f.ends[r.status + " " + r.failure];
      spent += r.charged ? r.credits : 0;
    }
    auto b = svc::e2e::get_balance(api, t.key);
    f.mischarged += b.available != t.credits - spent || b.held != 0 || static_cast<int>(mine.size()) != t.jobs;
    rows.insert(rows.end(), mine.begin(), mine.end());
  }
  f.jobs = static_cast<int>(rows.size());
  double created_all = 0, backlog_end = 1e300;
  std::map<std::string, double> last_start_of;
  for (auto& r : rows)
    if (r.team.rfind("heavy", 0) == 0) {
      created_all = std::max(created_all, r.created);
      last_start_of[r.team] = std::max(last_start_of[r.team], r.started);
    }
  for (auto& [name, at] : last_start_of)
    backlog_end = std::min(backlog_end, at);
  std::map<std::string, double> seconds;
  double heavy_total = 0;
  for (auto& r : rows)
    if (r.team.rfind("heavy", 0) == 0) {
      auto s = overlap(r.started, r.completed, created_all, backlog_end);
      seconds[r.team] += s;
      heavy_total += s;
    }
  for (int h = 0; h < 4; ++h) {
    auto& name = teams[static_cast<std::size_t>(h)].name;
    f.share[name] = heavy_total > 0 ? seconds[name] / heavy_total : 0;
    f.target[name] = heavy_weights[h] / 5.0;
  }
  std::vector<double> light_waits;
  double t0_unix = 1e300;
  for (auto& r : rows)
    t0_unix = std::min(t0_unix, r.created);
  std::map<std::string, std::vector<std::pair<double, double>>> waits; // class -> (created, wait)
  for (auto& r : rows) {
    bool light = r.team.rfind("light", 0) == 0;
    if (light)
      light_waits.push_back(r.started - r.created);
    waits[light ? "light" : r.team].push_back({r.created - t0_unix, r.started - r.created});
  }
  f.light_p50 = percentile(light_waits, 0.5);
  f.light_p95 = percentile(light_waits, 0.95);
  f.light_max = percentile(light_waits, 1.0);

  // CSV and the report.
  std::ofstream util(a.out + "/fleet-" + scenario + "-utilisation.csv");
  util << "second,busy_slots,live_slots,utilisation\n";
  svc::bench::chart_series util_line{"slot utilisation", "#1f77b4", {}};
  for (int b = static_cast<int>(w0); b < buckets; ++b) {
    auto live = live_per_s[static_cast<std::size_t>(b)], used = busy_per_s[static_cast<std::size_t>(b)];
    util << b << "," << used << "," << live << "," << (live > 0 ? used / live : 0) << "\n";
    if (live > 0)
      util_line.points.push_back({static_cast<double>(b), used / live});
  }
  std::ofstream team_csv(a.out + "/fleet-" + scenario + "-teams.csv");
  team_csv << "team,class,weight,jobs,engine_seconds_backlogged,share,target_share,wait_p50_s,wait_p95_s,wait_max_s\n";
  for (auto& t : teams) {
    std::vector<double> w;
    for (auto& r : rows)
      if (r.team == t.name)
        w.push_back(r.started - r.created);
    team_csv << t.name << "," << (t.heavy ? "heavy" : "light") << "," << t.weight << "," << w.size() << ","
             << seconds[t.name] << "," << (t.heavy ? f.share[t.name] : 0) << "," << (t.heavy ? f.target[t.name] : 0)
             << "," << percentile(w, 0.5) << "," << percentile(w, 0.95) << "," << percentile(w, 1.0) << "\n";
  }
  const char* colors[] = {"#d62728", "#2ca02c", "#9467bd", "#8c564b", "#1f77b4"};
  std::vector<svc::bench::chart_series> wait_lines;
  int c = 0;
  for (auto& [name, points] : waits) {
    std::sort(points.begin(), points.end());
    wait_lines.push_back({name, colors[c++ % 5], std::move(points)});
  }
  std::ofstream html(a.out + "/fleet-" + scenario + ".html");
  html << "<!doctype html><meta charset=utf-8><title>svc-fleet-bench " << scenario << "</title><body>\n<h1>"
       << scenario << ": " << a.engines << " engines, 4 heavy teams x " << a.heavy_jobs << ", " << a.light_teams
       << " light teams x " << a.light_jobs << "</h1>\n"
       << svc::bench::line_chart("Engine slot utilisation (per second)", {"seconds since the first create"},
                                 {"busy / live slots"}, {util_line}, w1, "queue empty")
       << svc::bench::line_chart("Queue wait of each job, by the time it was created", {"seconds since the first create"},
                                 {"seconds queued"}, wait_lines)
       << "</body>\n";
  std::remove(file.c_str());
  std::remove(workflow.c_str());
  return f;
}

void print(const std::string& scenario, const run_figures& f) {
  std::printf("%s: jobs=%d not_succeeded=%d mischarged_teams=%d\n", scenario.c_str(), f.jobs, f.lost, f.mischarged);
  for (auto& [end, n] : f.ends)
    std::printf("%s:   %d ended %s\n", scenario.c_str(), n, end.c_str());
  std::printf("%s: slot utilisation while work waits %.2f%% | an engine's idle time between two renders (one's end .. the "
              "next one's POST /prompt) mean=%.2f ms p50=%.2f ms p99=%.2f ms\n",
              scenario.c_str(), f.utilisation * 100, f.gap_mean_ms, f.gap_p50_ms, f.gap_p99_ms);
  std::printf("%s:   of it: the end seen and the next job dispatched (.. its websocket) p50=%.2f ms p99=%.2f ms; "
              "its prompt sent (.. POST /prompt) p50=%.2f ms\n",
              scenario.c_str(), f.dispatched_p50_ms, f.dispatched_p99_ms, f.sent_p50_ms);
  for (auto& [name, share] : f.share)
    std::printf("%s: %s share of engine seconds while backlogged %.3f (target %.3f, %+.1f%%)\n", scenario.c_str(),
                name.c_str(), share, f.target.at(name), (share / f.target.at(name) - 1) * 100);
  std::printf("%s: light teams' queue wait p50=%.2f s p95=%.2f s max=%.2f s\n", scenario.c_str(), f.light_p50,
              f.light_p95, f.light_max);
  if (f.kill_restart_s >= 0)
    std::printf("%s: one engine killed: its jobs ran again elsewhere within %.2f s\n", scenario.c_str(), f.kill_restart_s);
}

} // namespace

int main(int argc, char** argv) {
  fleet_args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--examples") a.examples = v;
    else if (k == "--out") a.out = v;
    else if (k == "--engines") a.engines = std::stoi(v);
    else if (k == "--heavy-jobs") a.heavy_jobs = std::stoi(v);
    else if (k == "--light-teams") a.light_teams = std::stoi(v);
    else if (k == "--light-jobs") a.light_jobs = std::stoi(v);
    else if (k == "--light-spread") a.light_spread_s = std::stoi(v);
    else {
      std::cerr << "usage: svc-fleet-bench --examples DIR [--out DIR] [--engines N] [--heavy-jobs N] "
                   "[--light-teams N] [--light-jobs N] [--light-spread S]\n";
      return 2;
    }
  }
  if (a.examples.empty() || a.engines < 4 || a.heavy_jobs < 10 || a.light_jobs < 1) {
    std::cerr << "usage: svc-fleet-bench --examples DIR [--out DIR] ...\n";
    return 2;
  }
  try {
    print("images", run(a, "images", false, true));
    print("videos", run(a, "videos", true, false));
  } catch (const std::exception& e) {
    std::cerr << "svc-fleet-bench: " << e.what() << "\n";
    return 1;
  }
  std::printf("reproduce: bench/run-fleet-bench   (ENGINES=%d HEAVY_JOBS=%d LIGHT_TEAMS=%d LIGHT_JOBS=%d)\n", a.engines,
              a.heavy_jobs, a.light_teams, a.light_jobs);
  return 0;
}
