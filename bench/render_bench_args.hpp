#pragma once
// What the render benches (svc-render-bench, svc-video-memory-bench) read
// from their command lines the same way: `--name value` pairs, recorded for
// the `reproduce:` line, the video they render unless told otherwise, and
// the encoder settings.

#include <cstdio>
#include <cstdlib>
#include <string>

#include "providers/procedural_renderer.hpp"

namespace svc::bench {

/// Calls `take(name, value)` for each `--name value` pair after argv[0] and
/// appends the pairs, quoted, to `command` (argv[0] first). False when a name
/// has no value or `take` refuses a pair.
template <class Take>
bool parse_pairs(int argc, char** argv, std::string& command, Take take) {
  command = argv[0];
  for (int i = 1; i < argc; i += 2) {
    if (i + 1 >= argc) return false;
    const std::string name = argv[i], value = argv[i + 1];
    command += " " + name + " '" + value + "'";
    if (!take(name, value)) return false;
  }
  return true;
}

/// A 4 s 768x432 video at 24 fps: the size issue 5 and issue 14 measured.
inline void set_default_video(providers::render_request& video) {
  video.width = 768;
  video.height = 432;
  video.duration_seconds = 4;
  video.fps = 24;
}

/// `WxH:SECONDS:FPS` into `video`; false when malformed or SECONDS < 1.
inline bool parse_video_shape(const std::string& v, providers::render_request& video) {
  return std::sscanf(v.c_str(), "%dx%d:%d:%d", &video.width, &video.height, &video.duration_seconds, &video.fps) == 4 &&
         video.duration_seconds > 0;
}

/// `--preset`, `--crf` or `--bframes` into `mp4`; false when `name` is none of them.
inline bool take_encoder_option(const std::string& name, const std::string& value, providers::mp4_options& mp4) {
  if (name == "--preset") mp4.preset = value;
  else if (name == "--crf") mp4.crf = std::atoi(value.c_str());
  else if (name == "--bframes") mp4.bframes = std::atoi(value.c_str());
  else return false;
  return true;
}

} // namespace svc::bench
