#include "providers/mp4_encoder.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/memory_file.hpp"
#include "providers/image.hpp"

#include "heap_noise.hpp"
#include "media_probe.hpp"

BOOST_AUTO_TEST_SUITE(providers_mp4_encoder)

using namespace svc::providers;

namespace {

// A diagonal gradient that slides right by `shift` pixels per frame.
image moving_gradient(int w, int h, int frame, float shift = 4.f) {
  image img(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float u = (static_cast<float>(x) + shift * static_cast<float>(frame)) / static_cast<float>(w);
      img.at(x, y) = {0.5f + 0.5f * std::sin(6.f * u), static_cast<float>(y) / static_cast<float>(h), 0.3f};
    }
  return img;
}

image flat(int w, int h, rgb c) {
  image img(w, h);
  for (auto& p : img.px) p = c;
  return img;
}

// Hands `img` to the encoder a row at a time, as the renderer does.
bool push(mp4_encoder& enc, const image& img, std::string& error) {
  return enc.push([&](int y, rgb* row) { std::copy(img.row(y), img.row(y) + img.width, row); }, error);
}

std::string encode_frames(int w, int h, int fps, int frames, mp4_options opts = {}) {
  mp4_encoder enc(opts);
  svc::core::memory_file file;
  std::string error;
  BOOST_REQUIRE_MESSAGE(enc.open(w, h, fps, file, error), error);
  for (int i = 0; i < frames; ++i) BOOST_REQUIRE_MESSAGE(push(enc, moving_gradient(w, h, i), error), error);
  BOOST_REQUIRE_MESSAGE(enc.finish(error), error);
  return file.take();
}

// A disk that fills up: writes that would take the file past `room` bytes fail.
class small_disk final : public svc::core::positional_file {
public:
  explicit small_disk(uint64_t room) : room_(room) {}
  bool write_at(uint64_t offset, const char* data, std::size_t size, std::string& error) override {
    if (offset + size > room_) {
      error = "No space left on device";
      return false;
    }
    return file_.write_at(offset, data, size, error);
  }
  int64_t read_at(uint64_t offset, char* data, std::size_t size) const override { return file_.read_at(offset, data, size); }
  uint64_t size() const override { return file_.size(); }

private:
  uint64_t room_;
  svc::core::memory_file file_;
};

} // namespace

BOOST_AUTO_TEST_CASE(writes_an_h264_mp4_that_ffprobe_reads) {
  const std::string mp4 = encode_frames(320, 176, 24, 48);
  const auto mismatch = svc::test::h264_mp4_mismatch(mp4, 320, 176, 48, 2.0);
  BOOST_TEST(mismatch.empty(), mismatch);
}

BOOST_AUTO_TEST_CASE(index_comes_before_the_media_data) {
  const auto boxes = svc::test::top_level_boxes(encode_frames(64, 48, 10, 5));
  BOOST_REQUIRE(boxes.size() >= 3u);
  BOOST_TEST(boxes.front() == "ftyp");
  const auto moov = std::find(boxes.begin(), boxes.end(), "moov");
  const auto mdat = std::find(boxes.begin(), boxes.end(), "mdat");
  BOOST_REQUIRE((moov != boxes.end() && mdat != boxes.end()));
  BOOST_TEST((moov < mdat));
}

BOOST_AUTO_TEST_CASE(equal_frames_give_byte_identical_files) {
  const auto a = encode_frames(128, 96, 12, 20);
  const auto b = encode_frames(128, 96, 12, 20);
  BOOST_TEST((a == b));
  BOOST_TEST((encode_frames(128, 96, 12, 19) != a));
  BOOST_TEST((encode_frames(128, 96, 12, 20, {30, "veryfast"}) != a));
}

// B-frames make x264 hold frames back in memory (bench/README.md): none
// unless asked for.
BOOST_AUTO_TEST_CASE(no_b_frames_unless_asked_for) {
  std::string error;
  const auto plain = svc::test::frame_types(encode_frames(128, 96, 12, 24), error);
  BOOST_REQUIRE_MESSAGE(plain, error);
  BOOST_TEST(plain->size() == 24u);
  BOOST_TEST(plain->find('B') == std::string::npos, *plain);
  mp4_options with_b;
  with_b.bframes = 3;
  const auto asked = svc::test::frame_types(encode_frames(128, 96, 12, 24, with_b), error);
  BOOST_REQUIRE_MESSAGE(asked, error);
  BOOST_TEST(asked->find('B') != std::string::npos, *asked);
}

// x264 reads memory it never wrote while it plans bits over the lookahead
// (macroblock tree) when the width is not a multiple of 64; the bytes would
// then depend on what the process allocated before. 272 and 208 are 17 and
// 13 macroblocks wide.
BOOST_AUTO_TEST_CASE(equal_frames_give_equal_files_whatever_the_heap_held_before) {
  for (auto [w, h] : {std::pair{272, 160}, std::pair{208, 176}, std::pair{784, 432}}) {
    const auto first = encode_frames(w, h, 8, 10);
    for (unsigned char pattern : {0x00, 0x01, 0x55, 0xff}) {
      svc::test::leave_heap_filled_with(pattern);
      BOOST_TEST((encode_frames(w, h, 8, 10) == first), w << "x" << h << " after a heap of " << int(pattern));
    }
  }
}

BOOST_AUTO_TEST_CASE(colours_survive_the_round_trip) {
  // Decoded by the ffmpeg CLI, independently of our colour conversion.
  for (const rgb c : {rgb{0.5f, 0.5f, 0.5f}, rgb{0.8f, 0.2f, 0.1f}, rgb{0.1f, 0.3f, 0.9f}}) {
    mp4_encoder enc;
    svc::core::memory_file file;
    std::string error;
    BOOST_REQUIRE(enc.open(64, 64, 8, file, error));
    BOOST_REQUIRE(push(enc, flat(64, 64, c), error));
    BOOST_REQUIRE(enc.finish(error));
    const auto raw = svc::test::decode_frames_rgb24(file.take(), error);
    BOOST_REQUIRE_MESSAGE(raw, error);
    BOOST_REQUIRE(raw->size() == 64u * 64u * 3u);
    double sum[3] = {};
    for (std::size_t i = 0; i < raw->size(); ++i) sum[i % 3] += static_cast<unsigned char>((*raw)[i]) / 255.0;
    const double n = 64.0 * 64.0;
    BOOST_TEST_INFO("colour " << c.r << "," << c.g << "," << c.b);
    BOOST_TEST(std::abs(sum[0] / n - c.r) < 0.04);
    BOOST_TEST(std::abs(sum[1] / n - c.g) < 0.04);
    BOOST_TEST(std::abs(sum[2] / n - c.b) < 0.04);
  }
}

BOOST_AUTO_TEST_CASE(odd_tiny_and_huge_sizes_and_bad_fps_are_refused) {
  for (auto [w, h, fps] : {std::tuple{63, 48, 24}, std::tuple{64, 47, 24}, std::tuple{14, 48, 24}, std::tuple{4098, 48, 24},
                           std::tuple{64, 4098, 24}, std::tuple{0, 0, 24}, std::tuple{64, 48, 0}, std::tuple{64, 48, 121}}) {
    mp4_encoder enc;
    svc::core::memory_file file;
    std::string error;
    BOOST_TEST_INFO(w << "x" << h << " at " << fps);
    BOOST_TEST(!enc.open(w, h, fps, file, error));
    BOOST_TEST(!error.empty());
    BOOST_TEST(!push(enc, flat(w > 0 ? w : 1, h > 0 ? h : 1, {}), error));
    BOOST_TEST(file.size() == 0u);
  }
  mp4_encoder edge;
  svc::core::memory_file file;
  std::string error;
  BOOST_TEST(edge.open(16, 4096, 1, file, error));
  BOOST_TEST(push(edge, flat(16, 4096, {0.2f, 0.4f, 0.6f}), error));
  BOOST_TEST(edge.finish(error));
}

BOOST_AUTO_TEST_CASE(misuse_fails_as_a_value_and_spends_the_encoder) {
  std::string error;
  svc::core::memory_file file;
  mp4_encoder unopened;
  BOOST_TEST(!push(unopened, flat(64, 64, {}), error));
  BOOST_TEST(!unopened.finish(error));

  mp4_encoder twice;
  BOOST_REQUIRE(twice.open(64, 64, 10, file, error));
  BOOST_TEST(!twice.open(64, 64, 10, file, error));

  svc::core::memory_file nothing_pushed;
  mp4_encoder empty;
  BOOST_REQUIRE(empty.open(64, 64, 10, nothing_pushed, error));
  BOOST_TEST(!empty.finish(error));
  BOOST_TEST(!push(empty, flat(64, 64, {}), error)); // spent after a failure

  svc::core::memory_file untouched;
  mp4_encoder bad_preset({23, "no-such-preset"});
  BOOST_TEST(!bad_preset.open(64, 64, 10, untouched, error));
  BOOST_TEST(error.find("no-such-preset") != std::string::npos);
  BOOST_TEST(untouched.size() == 0u);
}

// The file refuses a write part way (a full disk): the call that hit it fails
// with the file's own reason, and the encoder is spent.
BOOST_AUTO_TEST_CASE(a_file_that_refuses_a_write_fails_the_video_with_its_reason) {
  const auto whole = encode_frames(160, 96, 10, 30).size();
  for (const uint64_t room : {uint64_t{16}, uint64_t{whole / 2}, uint64_t{whole - 1}}) {
    BOOST_TEST_INFO("room for " << room << " of " << whole << " bytes");
    small_disk disk(room);
    mp4_encoder enc;
    std::string error;
    bool ok = enc.open(160, 96, 10, disk, error);
    for (int i = 0; ok && i < 30; ++i) ok = push(enc, moving_gradient(160, 96, i), error);
    if (ok) ok = enc.finish(error);
    BOOST_TEST(!ok);
    BOOST_TEST(error.find("writing the MP4: No space left on device") != std::string::npos, error);
    BOOST_TEST(!push(enc, moving_gradient(160, 96, 0), error));
    BOOST_TEST(!enc.finish(error));
  }
}

BOOST_AUTO_TEST_CASE(an_encoder_dropped_mid_video_frees_everything) {
  // Run under valgrind or ASan to see the leak check; here it must not crash.
  mp4_encoder enc;
  svc::core::memory_file file;
  std::string error;
  BOOST_REQUIRE(enc.open(96, 64, 24, file, error));
  for (int i = 0; i < 10; ++i) BOOST_REQUIRE(push(enc, moving_gradient(96, 64, i), error));
}

BOOST_AUTO_TEST_SUITE_END()
