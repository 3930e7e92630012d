#pragma once
// What Debian's ffprobe and ffmpeg make of downloaded outputs: an independent
// check that svcd's MP4 and PNG files are what players and viewers will see.

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

/// The first frame of an image or video file, scaled to `width` x `height`,
/// as packed RGB bytes (decoded by the `ffmpeg` CLI); nothing on failure.
std::optional<std::string> first_frame_rgb(std::string_view bytes, int width, int height, std::string& error);

/// The first frame of an ffmpeg lavfi `source` (e.g. `color=c=red:s=64x64`)
/// encoded as `extension` (`png`, `jpg`, `webp`); nothing on failure.
std::optional<std::string> lavfi_image(const std::string& source, const std::string& extension, std::string& error);

/// Mean absolute difference per channel (0..255) of two equal-sized RGB buffers; -1 when sizes differ.
double mean_abs_difference(std::string_view a, std::string_view b);

} // namespace svc::e2e
