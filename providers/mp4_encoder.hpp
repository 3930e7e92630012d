#pragma once
// Encodes the renderer's float frames as an H.264 (libx264, yuv420p) MP4 held
// in memory, with its index in front of the media data (`+faststart`) so a
// player starts at once. Equal frames and options give byte-identical files.

#include <memory>
#include <string>

#include "providers/image.hpp"

namespace svc::providers {

/// Encoder settings.
struct mp4_options {
  int crf = 23;                    ///< x264 constant rate factor, 0 (lossless) .. 51; 23 is x264's default
  std::string preset = "veryfast"; ///< x264 speed/size preset (see bench/README.md for the measurement)
};

/// Smallest width or height accepted; H.264 needs even sizes for yuv420p.
inline constexpr int min_video_side = 16;
/// Largest width or height accepted; bounds memory and time per video.
inline constexpr int max_video_side = 4096;

/// Why a width x height video at `fps` cannot be encoded (odd size, a side
/// outside min_video_side..max_video_side, fps outside 1..120), or empty.
std::string video_format_error(int width, int height, int fps);

/// One MP4 file being written: `open`, `push` each frame, `finish`. Not
/// thread-safe; one encoder per video. Every failure is a value: the call
/// returns false with the reason in `error`, the encoder frees what it holds,
/// and every later call fails too.
class mp4_encoder {
public:
  /// An encoder with `opts`; nothing is allocated until `open`.
  explicit mp4_encoder(mp4_options opts = {});
  /// Frees everything, also mid-video (a cancelled render simply drops it).
  ~mp4_encoder();
  mp4_encoder(const mp4_encoder&) = delete;
  mp4_encoder& operator=(const mp4_encoder&) = delete;

  /// Starts a width x height video at `fps` frames per second. Fails when
  /// video_format_error objects, on a second `open`, or when libavcodec lacks
  /// libx264.
  bool open(int width, int height, int fps, std::string& error);

  /// Encodes the next frame (channels clamped to 0..1, BT.709 limited range).
  /// Fails unless open and `frame` has the opened size.
  bool push(const image& frame, std::string& error);

  /// Flushes the encoder and writes the index; moves the file into `out`.
  /// Fails when no frame was pushed. The encoder is spent afterwards.
  bool finish(std::string& out, std::string& error);

private:
  struct state;
  mp4_options opts_;
  std::unique_ptr<state> state_;
  bool opened_ = false;
};

} // namespace svc::providers
