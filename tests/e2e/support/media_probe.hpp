#pragma once
// What Debian's ffprobe reports about a downloaded video: an independent
// check that svcd's MP4 files are what players will see.

#include <optional>
#include <string>
#include <string_view>

namespace svc::e2e {

/// The first video stream and the container, as ffprobe reads them.
struct video_probe {
  std::string codec;        ///< `codec_name`, e.g. `h264`
  std::string pixel_format; ///< `pix_fmt`, e.g. `yuv420p`
  int width = 0;            ///< pixels
  int height = 0;           ///< pixels
  long frames = 0;          ///< `nb_frames` of the stream
  double seconds = 0;       ///< the container's `duration`
  std::string format;       ///< `format_name`, e.g. `mov,mp4,m4a,3gp,3g2,mj2`
};

/// Runs `ffprobe` (from PATH) on `bytes` written to a temporary file; nothing
/// when ffprobe is missing, fails, or finds no video stream (`error` says why).
std::optional<video_probe> probe_video(std::string_view bytes, std::string& error);

} // namespace svc::e2e
