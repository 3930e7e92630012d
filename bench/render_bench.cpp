// Measures the built-in procedural renderer: wall time to render and encode
// one PNG at 1024x1024 and 512x512, on one thread, N runs each (default 5),
// printing every run, the median and the command that reproduces it.
//
//   cmake --build build --target svc-render-bench
//   build/bench/svc-render-bench [--runs 5] [--prompt TEXT] [--seed N] [--steps N]
//                                [--lora SLUG[:WEIGHT]]... [--out DIR]
//
// --out writes each size's last PNG to DIR (to look at); --lora may repeat.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "providers/procedural_renderer.hpp"

namespace {

using svc::providers::cancel_token;
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
  std::string out_dir;
  std::string command;
};

bool parse(int argc, char** argv, options& o) {
  o.req.prompt = "a quiet mountain lake at sunset, pine trees";
  o.req.seed = 42;
  o.command = argv[0];
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return false;
    const std::string v = argv[++i];
    o.command += " " + a + " '" + v + "'";
    if (a == "--runs") o.runs = std::max(1, std::atoi(v.c_str()));
    else if (a == "--prompt") o.req.prompt = v;
    else if (a == "--seed") o.req.seed = static_cast<uint32_t>(std::strtoul(v.c_str(), nullptr, 10));
    else if (a == "--steps") o.req.steps = std::atoi(v.c_str());
    else if (a == "--out") o.out_dir = v;
    else if (a == "--lora") {
      const auto colon = v.find(':');
      o.req.loras.push_back({v.substr(0, colon), colon == std::string::npos ? 1.0 : std::atof(v.c_str() + colon + 1)});
    } else return false;
  }
  return true;
}

} // namespace

int main(int argc, char** argv) {
  options o;
  if (!parse(argc, argv, o)) {
    std::fprintf(stderr, "usage: %s [--runs N] [--prompt TEXT] [--seed N] [--steps N] [--lora SLUG[:W]]... [--out DIR]\n", argv[0]);
    return 2;
  }
  procedural_renderer renderer;
  const cancel_token never;
  for (const int side : {1024, 512}) {
    render_request req = o.req;
    req.width = req.height = side;
    std::vector<double> ms, cpu;
    std::string last;
    for (int r = 0; r < o.runs; ++r) {
      const auto start = std::chrono::steady_clock::now();
      const double cpu_start = thread_cpu_ms();
      auto outcome = renderer.render(req, {}, never);
      const double elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      const double cpu_ms = thread_cpu_ms() - cpu_start;
      if (!outcome.ok()) {
        std::fprintf(stderr, "render failed: %s\n", outcome.error().message.c_str());
        return 1;
      }
      last = std::move(outcome.value().outputs.front());
      ms.push_back(elapsed);
      cpu.push_back(cpu_ms);
      std::printf("%dx%d run %d: %.1f ms wall, %.1f ms cpu (%zu bytes)\n", side, side, r + 1, elapsed, cpu_ms, last.size());
    }
    std::sort(ms.begin(), ms.end());
    std::sort(cpu.begin(), cpu.end());
    std::printf("%dx%d median of %d: %.1f ms wall, %.1f ms cpu\n", side, side, o.runs, ms[ms.size() / 2], cpu[cpu.size() / 2]);
    if (!o.out_dir.empty()) {
      const std::string path = o.out_dir + "/render-" + std::to_string(side) + ".png";
      std::ofstream(path, std::ios::binary) << last;
      std::printf("wrote %s\n", path.c_str());
    }
  }
  std::printf("reproduce: %s\n", o.command.c_str());
  return 0;
}
