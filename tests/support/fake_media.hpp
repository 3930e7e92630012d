#pragma once
// Real but cheap media for the stand-in engines' outputs: a PNG that differs
// per seed and a short MP4, so a client's decoding and probing see genuine files.

#include <cstdint>
#include <string>

namespace svc::test {

/// A `w` x `h` PNG, a gradient in a hue chosen by `seed`; empty if encoding fails.
std::string fake_png(int w, int h, std::uint64_t seed);

/// An MP4 of `frames` frames at `fps` (at least 1) that brighten over time; empty if encoding fails.
std::string fake_mp4(int w, int h, int frames, int fps);

/// A VP9 WebM (or Matroska, `suffix` `.mkv`) of `frames` frames of a test
/// pattern at `fps`, made by the ffmpeg CLI (Svc writes no WebM of its own);
/// empty if ffmpeg is missing or fails.
std::string fake_webm(int w, int h, int frames, int fps, const std::string& suffix = ".webm");

} // namespace svc::test
