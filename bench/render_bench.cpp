// Measures the built-in procedural renderer: wall and CPU time to render and
// encode one PNG at 1024x1024 and 512x512, and one MP4 video (default 4 s of
// 768x432 at 24 fps: keyframe, camera move, H.264), on one thread, N runs
// each (default 5), printing every run, the medians and the command that
// reproduces them.
//
//   cmake --build build --target svc-render-bench
//   build/bench/svc-render-bench [--runs 5] [--prompt TEXT] [--seed N] [--steps N]
//                                [--lora SLUG[:WEIGHT]]... [--init FILE]
//                                [--video WxH:SECONDS:FPS] [--preset NAME] [--crf N] [--bframes N] [--out DIR]
//
// --init uses FILE (PNG, JPEG or WebP) as the init image; --preset, --crf and
// --bframes set the x264 encoder (defaults: the renderer's); --video 0 skips the video;
// --out writes each case's last output to DIR (to look at); --lora may repeat.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bench/render_bench_args.hpp"
#include "providers/procedural_renderer.hpp"

namespace {

using svc::providers::cancel_token;
using svc::providers::procedural_options;
using svc::providers::procedural_renderer;
using svc::providers::render_request;

// CPU time of this thread: on a shared machine it shows the renderer's own
// cost when wall time is inflated by other processes.
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

struct options {
  int runs = 5;
  render_request req;
  procedural_options renderer;
  render_request video{}; ///< size, duration and fps; duration 0 skips the video
  std::string out_dir;
  std::string command;
};

bool parse(int argc, char** argv, options& o) {
  o.req.prompt = "a quiet mountain lake at sunset, pine trees";
  o.req.seed = 42;
  svc::bench::set_default_video(o.video);
  return svc::bench::parse_pairs(argc, argv, o.command, [&o](const std::string& a, const std::string& v) {
    if (a == "--runs") o.runs = std::max(1, std::atoi(v.c_str()));
    else if (a == "--prompt") o.req.prompt = v;
    else if (a == "--seed") o.req.seed = static_cast<uint32_t>(std::strtoul(v.c_str(), nullptr, 10));
    else if (a == "--steps") o.req.steps = std::atoi(v.c_str());
    else if (a == "--out") o.out_dir = v;
    else if (a == "--video") {
      if (v == "0") o.video.duration_seconds = 0; // no video
      else return svc::bench::parse_video_shape(v, o.video);
    } else if (a == "--init") {
      std::ifstream file(v, std::ios::binary);
      if (!file) return false;
      o.req.init_image.assign(std::istreambuf_iterator<char>(file), {});
    } else if (a == "--lora") {
      const auto colon = v.find(':');
      o.req.loras.push_back({v.substr(0, colon), colon == std::string::npos ? 1.0 : std::atof(v.c_str() + colon + 1)});
    } else return svc::bench::take_encoder_option(a, v, o.renderer.mp4);
    return true;
  });
}

// Renders `req` `runs` times; prints each run and the medians; writes the last
// output to `out_dir` as `name` when asked. False when a render fails.
bool measure(procedural_renderer& renderer, const render_request& req, const options& o, const std::string& label,
             const std::string& name) {
  const cancel_token never;
  std::vector<double> ms, cpu;
  std::string last;
  for (int r = 0; r < o.runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = thread_cpu_ms();
    auto outcome = renderer.render(req, {}, never);
    const double elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const double cpu_ms = thread_cpu_ms() - cpu_start;
    if (!outcome.ok()) {
      std::fprintf(stderr, "%s: render failed: %s\n", label.c_str(), outcome.error().message.c_str());
      return false;
    }
    last = std::move(outcome.value().outputs.front());
    ms.push_back(elapsed);
    cpu.push_back(cpu_ms);
    std::printf("%s run %d: %.1f ms wall, %.1f ms cpu (%zu bytes)\n", label.c_str(), r + 1, elapsed, cpu_ms, last.size());
  }
  std::sort(ms.begin(), ms.end());
  std::sort(cpu.begin(), cpu.end());
  std::printf("%s median of %d: %.1f ms wall, %.1f ms cpu\n", label.c_str(), o.runs, ms[ms.size() / 2], cpu[cpu.size() / 2]);
  if (!o.out_dir.empty()) {
    const std::string path = o.out_dir + "/" + name;
    std::ofstream(path, std::ios::binary) << last;
    std::printf("wrote %s\n", path.c_str());
  }
  return true;
}

} // namespace

int main(int argc, char** argv) {
  options o;
  if (!parse(argc, argv, o)) {
    std::fprintf(stderr,
                 "usage: %s [--runs N] [--prompt TEXT] [--seed N] [--steps N] [--lora SLUG[:W]]... [--init FILE]\n"
                 "       [--video WxH:SECONDS:FPS | --video 0] [--preset NAME] [--crf N] [--bframes N] [--out DIR]\n",
                 argv[0]);
    return 2;
  }
  procedural_renderer renderer(o.renderer);
  for (const int side : {1024, 512}) {
    render_request req = o.req;
    req.width = req.height = side;
    const std::string size = std::to_string(side) + "x" + std::to_string(side);
    if (!measure(renderer, req, o, size, "render-" + std::to_string(side) + ".png")) return 1;
  }
  if (o.video.duration_seconds > 0) {
    render_request req = o.req;
    req.width = o.video.width;
    req.height = o.video.height;
    req.duration_seconds = o.video.duration_seconds;
    req.fps = o.video.fps;
    const std::string label = "video " + std::to_string(req.width) + "x" + std::to_string(req.height) + " " +
                              std::to_string(req.duration_seconds) + " s at " + std::to_string(req.fps) + " fps (" +
                              o.renderer.mp4.preset + ", crf " + std::to_string(o.renderer.mp4.crf) + ", bframes " +
                              std::to_string(o.renderer.mp4.bframes) + ")";
    if (!measure(renderer, req, o, label, "render-video.mp4")) return 1;
  }
  std::printf("reproduce: %s\n", o.command.c_str());
  return 0;
}
