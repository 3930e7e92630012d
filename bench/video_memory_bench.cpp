// Measures the memory one video render adds to a process: the peak resident
// set (VmHWM) during one render of the built-in back end, its MP4 streamed
// into a blob of a temp folder and committed as svcd's job worker does,
// minus the resident set just before it; each run in a fresh child process
// (a parent's freed but retained heap would hide the cost). A tiny video
// first loads the code (libx264's pages count as resident too); then the
// heap is trimmed and the peak reset (`/proc/self/clear_refs` 5). Prints
// every run, the median and the command that reproduces it. For where the
// bytes go, run one render under heaptrack (see bench/README.md).
//
//   cmake --build build --target svc-video-memory-bench
//   build/bench/svc-video-memory-bench [--runs 5] [--video WxH:SECONDS:FPS] [--preset NAME] [--crf N]
//                                      [--bframes N] [--in-process 1]
//
// --in-process 1 measures one run in this process (--runs is then 1), for a
// heap profiler that does not follow forks:
// `heaptrack build/bench/svc-video-memory-bench --in-process 1`.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <malloc.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/positional_file.hpp"
#include "persistence/blob_store.hpp"
#include "bench/render_bench_args.hpp"
#include "providers/procedural_renderer.hpp"

namespace {

using svc::providers::cancel_token;
using svc::providers::procedural_options;
using svc::providers::procedural_renderer;
using svc::providers::render_request;

struct options {
  int runs = 5;
  bool in_process = false;
  render_request video;
  procedural_options renderer;
  std::string command;
};

bool parse(int argc, char** argv, options& o) {
  o.video.prompt = "a harbour at dawn, boats and gulls";
  o.video.seed = 42;
  svc::bench::set_default_video(o.video);
  const bool ok = svc::bench::parse_pairs(argc, argv, o.command, [&o](const std::string& a, const std::string& v) {
    if (a == "--runs") o.runs = std::max(1, std::atoi(v.c_str()));
    else if (a == "--in-process") o.in_process = v == "1";
    else if (a == "--video") return svc::bench::parse_video_shape(v, o.video);
    else return svc::bench::take_encoder_option(a, v, o.renderer.mp4);
    return true;
  });
  if (o.in_process) o.runs = 1;
  return ok;
}

// A field of /proc/self/status in KiB (VmRSS, VmHWM), or -1.
long status_kib(const std::string& field) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.compare(0, field.size() + 1, field + ":") == 0) return std::atol(line.c_str() + field.size() + 1);
  return -1;
}

// What one child measured.
struct sample {
  long before_kib = -1; ///< resident set just before the render
  long peak_kib = -1;   ///< highest resident set during it
  long bytes = -1;      ///< size of the MP4
};

// Renders `req` into the blob `outputs/video.mp4` of `blobs` and commits it;
// the MP4's size, or -1.
long render_into_blob(procedural_renderer& renderer, render_request req, svc::persistence::file_blob_store& blobs) {
  std::unique_ptr<svc::persistence::blob_writer> file;
  if (!blobs.create("outputs/video.mp4", file).ok()) return -1;
  req.video_file = file.get();
  auto outcome = renderer.render(req, {}, cancel_token{});
  if (!outcome.ok()) {
    std::fprintf(stderr, "render failed: %s\n", outcome.error().message.c_str());
    return -1;
  }
  return svc::core::sha256_of(*file) && file->commit().ok() ? static_cast<long>(file->size()) : -1;
}

sample measure_once(const options& o) {
  procedural_renderer renderer(o.renderer);
  char dir[] = "/tmp/svc-video-memory-XXXXXX";
  if (mkdtemp(dir) == nullptr) return {};
  sample s;
  {
    svc::persistence::file_blob_store blobs(dir);
    render_request warm_up = o.video;
    warm_up.width = warm_up.height = 64;
    warm_up.duration_seconds = 1;
    warm_up.fps = 2;
    if (render_into_blob(renderer, warm_up, blobs) > 0) {
      malloc_trim(0);
      if (std::ofstream("/proc/self/clear_refs") << "5") {
        s.before_kib = status_kib("VmRSS");
        s.bytes = render_into_blob(renderer, o.video, blobs);
        s.peak_kib = status_kib("VmHWM");
      }
    }
  }
  std::filesystem::remove_all(dir);
  return s;
}

// Runs measure_once in a child process (or here, when asked); false when it failed.
bool measure_in_child(const options& o, sample& out) {
  if (o.in_process) {
    out = measure_once(o);
    return out.bytes > 0;
  }
  int fds[2];
  if (pipe(fds) != 0) return false;
  const pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    close(fds[0]);
    const sample s = measure_once(o);
    const bool sent = write(fds[1], &s, sizeof s) == static_cast<ssize_t>(sizeof s);
    _exit(sent && s.bytes > 0 ? 0 : 1);
  }
  close(fds[1]);
  const bool got = read(fds[0], &out, sizeof out) == static_cast<ssize_t>(sizeof out);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return got && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

double mib(long kib) { return static_cast<double>(kib) / 1024.0; }

} // namespace

int main(int argc, char** argv) {
  options o;
  if (!parse(argc, argv, o)) {
    std::fprintf(stderr, "usage: %s [--runs N] [--video WxH:SECONDS:FPS] [--preset NAME] [--crf N] [--bframes N] [--in-process 1]\n", argv[0]);
    return 2;
  }
  std::vector<double> added;
  for (int r = 1; r <= o.runs; ++r) {
    sample s;
    if (!measure_in_child(o, s)) {
      std::fprintf(stderr, "run %d failed (is /proc/self/clear_refs writable?)\n", r);
      return 1;
    }
    added.push_back(mib(s.peak_kib - s.before_kib));
    std::printf("run %d: peak RSS %.1f MiB, %.1f MiB before the render: +%.1f MiB (MP4 %ld bytes)\n", r, mib(s.peak_kib),
                mib(s.before_kib), added.back(), s.bytes);
  }
  std::sort(added.begin(), added.end());
  std::printf("median of %d: one %dx%d %d s video at %d fps (%s, crf %d, bframes %d) adds %.1f MiB of resident memory\n",
              o.runs, o.video.width, o.video.height, o.video.duration_seconds, o.video.fps, o.renderer.mp4.preset.c_str(),
              o.renderer.mp4.crf, o.renderer.mp4.bframes, added[added.size() / 2]);
  std::printf("reproduce: %s\n", o.command.c_str());
  return 0;
}
