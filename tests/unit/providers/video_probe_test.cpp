#include "providers/video_probe.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "core/memory_file.hpp"
#include "providers/image.hpp"
#include "providers/mp4_encoder.hpp"
#include "providers/png_writer.hpp"

#include "fake_media.hpp"
#include "media_probe.hpp"

BOOST_AUTO_TEST_SUITE(providers_video_probe)

using namespace svc::providers;

namespace {

// Every test video: 2 s of 16 frames at 8 fps.
constexpr int video_width = 64, video_height = 48, video_fps = 8, video_frames = 16;
constexpr double video_seconds = 2.0;

// An H.264 MP4 from the project's own encoder, made once: frames that brighten one by one.
const std::string& encoded_mp4() {
  static const std::string mp4 = [] {
    mp4_encoder enc;
    svc::core::memory_file file;
    std::string error;
    BOOST_REQUIRE_MESSAGE(enc.open(video_width, video_height, video_fps, file, error), error);
    for (int i = 0; i < video_frames; ++i) {
      const rgb shade{static_cast<float>(i) / video_frames, 0.4f, 0.6f};
      BOOST_REQUIRE_MESSAGE(enc.push([&](int, rgb* row) { std::fill(row, row + video_width, shade); }, error), error);
    }
    BOOST_REQUIRE_MESSAGE(enc.finish(error), error);
    return file.take();
  }();
  return mp4;
}

// A VP9 video; the suffix picks the muxer: `.webm`, or `.mkv` for a Matroska
// file that is not WebM.
std::string ffmpeg_vp9(const std::string& suffix) {
  auto bytes = svc::test::fake_webm(video_width, video_height, static_cast<int>(video_seconds * video_fps), video_fps, suffix);
  BOOST_REQUIRE_MESSAGE(!bytes.empty(), "ffmpeg (Debian package ffmpeg) could not make a VP9 " << suffix);
  return bytes;
}

// `n` bytes of noise, the same on every run (the engine's raw output is not trusted).
std::string noise(std::size_t n, uint32_t seed) {
  std::mt19937 bits(seed);
  std::string out(n, '\0');
  for (auto& c : out) c = static_cast<char>(bits() & 0xff);
  return out;
}

void expect_no_video(const std::string& bytes, const std::string& what) {
  std::string error;
  BOOST_TEST_INFO(what);
  BOOST_TEST(!probe_video_bytes(bytes, error).has_value());
  BOOST_TEST(!error.empty());
}

// The facts of a video that is just what was asked.
video_facts as_asked() {
  video_facts f;
  f.container = "mp4";
  f.content_type = "video/mp4";
  f.codec = "h264";
  f.width = video_width;
  f.height = video_height;
  f.frames = video_frames;
  f.seconds = video_seconds;
  return f;
}

std::string mismatch(const video_facts& f, int frame_tolerance = 0, double duration_tolerance = 0.1) {
  return video_mismatch(f, video_width, video_height, video_frames, video_seconds, frame_tolerance, duration_tolerance);
}

} // namespace

BOOST_AUTO_TEST_CASE(reads_the_facts_of_an_h264_mp4) {
  std::string error;
  const auto facts = probe_video_bytes(encoded_mp4(), error);
  BOOST_REQUIRE_MESSAGE(facts, error);
  BOOST_TEST(facts->container == "mp4");
  BOOST_TEST(facts->content_type == "video/mp4");
  BOOST_TEST(facts->codec == "h264");
  BOOST_TEST(facts->width == video_width);
  BOOST_TEST(facts->height == video_height);
  BOOST_TEST(facts->frames == video_frames);
  BOOST_TEST(std::abs(facts->seconds - video_seconds) < 1e-6, facts->seconds);
  BOOST_TEST(mismatch(*facts).empty(), mismatch(*facts));
}

BOOST_AUTO_TEST_CASE(reads_a_file_on_disk_alike) {
  const svc::test::temp_file file(encoded_mp4(), ".mp4");
  std::string error;
  const auto facts = probe_video_file(file.path(), error);
  BOOST_REQUIRE_MESSAGE(facts, error);
  BOOST_TEST(facts->content_type == "video/mp4");
  BOOST_TEST(facts->frames == video_frames);
  BOOST_TEST(std::abs(facts->seconds - video_seconds) < 1e-6, facts->seconds);
  BOOST_TEST(!probe_video_file(file.path() + ".missing", error).has_value());
  BOOST_TEST(!probe_video_file("/", error).has_value());
  BOOST_TEST(error.find("regular file") != std::string::npos, error);
}

// Matroska has no duration per track, so the seconds come from the packets.
BOOST_AUTO_TEST_CASE(reads_the_facts_of_a_vp9_webm) {
  std::string error;
  const auto facts = probe_video_bytes(ffmpeg_vp9(".webm"), error);
  BOOST_REQUIRE_MESSAGE(facts, error);
  BOOST_TEST(facts->container == "webm");
  BOOST_TEST(facts->content_type == "video/webm");
  BOOST_TEST(facts->codec == "vp9");
  BOOST_TEST(facts->width == video_width);
  BOOST_TEST(facts->height == video_height);
  BOOST_TEST(facts->frames == video_frames);
  BOOST_TEST(std::abs(facts->seconds - video_seconds) < 1e-3, facts->seconds);
  BOOST_TEST(mismatch(*facts).empty(), mismatch(*facts));
}

BOOST_AUTO_TEST_CASE(a_matroska_file_that_is_not_webm_is_not_served) {
  std::string error;
  const auto facts = probe_video_bytes(ffmpeg_vp9(".mkv"), error);
  BOOST_REQUIRE_MESSAGE(facts, error);
  BOOST_TEST(facts->container == "matroska");
  BOOST_TEST(facts->content_type.empty());
  BOOST_TEST(mismatch(*facts) == "the engine's video's container is matroska, not MP4 or WebM");
}

BOOST_AUTO_TEST_CASE(a_wrong_size_is_named) {
  auto f = as_asked();
  f.width = 32;
  BOOST_TEST(mismatch(f) == "the engine's video is 32x48, not 64x48");
}

BOOST_AUTO_TEST_CASE(frames_beyond_the_tolerance_are_named) {
  auto f = as_asked();
  f.frames = 12;
  BOOST_TEST(mismatch(f, 1) == "the engine's video has 12 frames, not 16 (±1)");
  f.frames = 18;
  BOOST_TEST(!mismatch(f, 1).empty());
}

BOOST_AUTO_TEST_CASE(frames_within_the_tolerance_are_accepted) {
  auto f = as_asked();
  for (int frames : {15, 17}) {
    f.frames = frames;
    BOOST_TEST(mismatch(f, 1).empty(), mismatch(f, 1));
    BOOST_TEST(!mismatch(f, 0).empty(), frames);
  }
}

BOOST_AUTO_TEST_CASE(a_duration_beyond_the_tolerance_is_named) {
  auto f = as_asked();
  f.seconds = 1.5;
  BOOST_TEST(mismatch(f) == "the engine's video lasts 1.5 s, not 2 s (±0.1 s)");
  f.seconds = 2.1; // on the tolerance's edge, whatever the rounding of 2.1 - 2
  BOOST_TEST(mismatch(f).empty(), mismatch(f));
}

BOOST_AUTO_TEST_CASE(a_container_or_codec_svc_does_not_serve_is_named) {
  auto f = as_asked();
  f.container = "avi";
  f.content_type.clear();
  BOOST_TEST(mismatch(f) == "the engine's video's container is avi, not MP4 or WebM");
  for (const char* codec : {"aac", "none", "no-such-codec"}) {
    f = as_asked();
    f.codec = codec;
    BOOST_TEST(mismatch(f) == "the engine's video holds " + std::string(codec) + ", not a video codec");
  }
}

BOOST_AUTO_TEST_CASE(what_is_no_video_gives_nothing) {
  expect_no_video("", "empty");
  expect_no_video(noise(64 * 1024, 1), "noise");
  const std::string& mp4 = encoded_mp4();
  expect_no_video(mp4.substr(0, 64) + noise(16 * 1024, 2), "an MP4's first bytes over noise");
  expect_no_video(ffmpeg_vp9(".webm").substr(0, 48) + noise(16 * 1024, 3), "a WebM's first bytes over noise");
  std::string png, error;
  BOOST_REQUIRE_MESSAGE(encode_png(image(32, 32), {}, png, error), error);
  expect_no_video(png, "a PNG");
}

// Cut anywhere, in its header or in its frames (the last one by a byte), an MP4 is no video.
BOOST_AUTO_TEST_CASE(a_truncated_mp4_gives_nothing) {
  const std::string& mp4 = encoded_mp4();
  for (std::size_t n = 1; n < mp4.size(); n += mp4.size() / 23 + 1)
    expect_no_video(mp4.substr(0, n), "the first " + std::to_string(n) + " bytes");
  expect_no_video(mp4.substr(0, mp4.size() - 1), "all but the last byte");
}

BOOST_AUTO_TEST_SUITE_END()
