#pragma once
// What an engine's video really is (container, codec, size, frames, length),
// read with libavformat from untrusted bytes, and how it differs from what a
// job asked for: a wrong video fails its job instead of reaching the client.

#include <optional>
#include <string>
#include <string_view>

namespace svc::providers {

/// What a video file holds, as libavformat reads it.
struct video_facts {
  std::string container;    ///< "mp4" or "webm" (others: libavformat's short name)
  std::string content_type; ///< "video/mp4", "video/webm"; empty for a container Svc does not serve
  std::string codec;        ///< the video stream's codec name ("h264", "vp9", "av1"...)
  int width = 0, height = 0;
  int frames = 0;           ///< counted packets of the video stream (nb_frames when the header has it, else counted by reading)
  double seconds = 0;       ///< the video stream's duration
};

/// Reads `bytes` from memory (custom AVIOContext, no temp file); nothing and `error` when it is no video.
/// Only the containers an engine's video plausibly comes in are read (MP4/QuickTime, Matroska/WebM, AVI,
/// FLV, MPEG-TS, Ogg); the file may open no other file; at most 100000 packets are read, no picture is
/// decoded. A file cut short or damaged after its header is no video either. Thread-safe.
std::optional<video_facts> probe_video_bytes(std::string_view bytes, std::string& error);

/// Same for a file on disk (read in place, never loaded whole); a path that is no regular file is no video.
std::optional<video_facts> probe_video_file(const std::string& path, std::string& error);

/// Empty when `facts` match the asked size exactly and the asked frames (duration_seconds*fps) and
/// duration within the tolerances, the container is one Svc serves (MP4 or WebM) and the codec is a video codec; otherwise one sentence saying what differs (for failure.message), e.g. "the engine's video has 12 frames, not 16 (±1)".
std::string video_mismatch(const video_facts& facts, int width, int height, int frames, double seconds,
                           int frame_tolerance, double duration_tolerance);

} // namespace svc::providers
