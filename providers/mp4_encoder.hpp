#pragma once
// Encodes the renderer's float frames as an H.264 (libx264, yuv420p) MP4
// written as it is muxed into a positional file (a blob's temp file), with its
// index in front of the media data (`+faststart`, a second pass over that
// file) so a player starts at once. Equal frames and options give
// byte-identical files.

#include <functional>
#include <memory>
#include <string>

#include "core/positional_file.hpp"
#include "providers/color.hpp"

namespace svc::providers {

/// Encoder settings.
struct mp4_options {
  int crf = 23;                    ///< x264 constant rate factor, 0 (lossless) .. 51; 23 is x264's default
  std::string preset = "veryfast"; ///< x264 speed/size preset (see bench/README.md for the measurement)
  /// B-frames x264 may use, 0..16. Each holds frames back in memory (768x432:
  /// the preset's 3 cost about 11 MiB more a render than none, for a file
  /// about a third smaller at equal crf; bench/README.md), so none by default.
  int bframes = 0;
};

/// Smallest width or height accepted; H.264 needs even sizes for yuv420p.
inline constexpr int min_video_side = 16;
/// Largest width or height accepted; bounds memory and time per video.
inline constexpr int max_video_side = 4096;

/// Why a width x height video at `fps` cannot be encoded (odd size, a side
/// outside min_video_side..max_video_side, fps outside 1..120), or empty.
std::string video_format_error(int width, int height, int fps);

/// Paints row `y` of a frame (top row 0) into `row`, the frame's width of
/// pixels. Rows are asked for in order, so a frame is never held whole.
using row_painter = std::function<void(int y, rgb* row)>;

/// One MP4 file being written: `open`, `push` each frame, `finish`. Not
/// thread-safe; one encoder per video. Every failure is a value: the call
/// returns false with the reason in `error`, the encoder frees what it holds,
/// and every later call fails too. Memory: libx264's few frames in flight,
/// one YUV frame, two rows of floats and the MP4's index; never the file.
class mp4_encoder {
public:
  /// An encoder with `opts`; nothing is allocated until `open`.
  explicit mp4_encoder(mp4_options opts = {});
  /// Frees everything, also mid-video (a cancelled render simply drops it).
  ~mp4_encoder();
  mp4_encoder(const mp4_encoder&) = delete;
  mp4_encoder& operator=(const mp4_encoder&) = delete;

  /// Starts a width x height video at `fps` frames per second, written from
  /// offset 0 of `out`, which outlives the encoder. Fails when
  /// video_format_error objects, on a second `open`, when libavcodec lacks
  /// libx264, or when `out` fails a write (the error says `writing the MP4`).
  bool open(int width, int height, int fps, core::positional_file& out, std::string& error);

  /// Encodes the next frame, painted a row at a time by `paint` (channels
  /// clamped to 0..1, BT.709 limited range). Fails unless open, or when `out` fails a write.
  bool push(const row_painter& paint, std::string& error);

  /// Flushes the encoder and completes the file in `out` (index in front).
  /// Fails when no frame was pushed or `out` fails. The encoder is spent afterwards.
  bool finish(std::string& error);

private:
  struct state;
  mp4_options opts_;
  std::unique_ptr<state> state_;
  bool opened_ = false;
};

} // namespace svc::providers
