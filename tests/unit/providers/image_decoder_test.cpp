#include "providers/image_decoder.hpp"

#include <boost/test/unit_test.hpp>

#include <zlib.h>

#include <cmath>
#include <string>

#include "core/config.hpp"
#include "media_probe.hpp"
#include "providers/png_writer.hpp"
#include "providers/rng.hpp"

BOOST_AUTO_TEST_SUITE(providers_image_decoder)

using namespace svc::providers;

namespace {

// Left half red, right half blue, with a vertical grey ramp in green.
image halves(int w, int h) {
  image img(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      img.at(x, y) = x < w / 2 ? rgb{0.9f, 0.f, 0.1f} : rgb{0.1f, 0.f, 0.9f};
  return img;
}

std::string png_of(const image& img) {
  std::string png, error;
  BOOST_REQUIRE_MESSAGE(encode_png(img, {}, png, error), error);
  return png;
}

// `input` (a PNG) converted by the ffmpeg CLI: an encoder independent of the
// decoder under test. `args` go between input and output.
std::string ffmpeg_convert(const std::string& input, const std::string& suffix, const std::string& args) {
  const std::string ffmpeg = svc::test::find_on_path("ffmpeg");
  BOOST_REQUIRE_MESSAGE(!ffmpeg.empty(), "ffmpeg not found on PATH (Debian package ffmpeg)");
  const svc::test::temp_file in(input, ".png"), out("", suffix);
  BOOST_REQUIRE(svc::test::run_command(ffmpeg + " -v error -y -i '" + in.path() + "' " + args + " '" + out.path() + "'"));
  std::ifstream file(out.path(), std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file), {});
}

double mean_abs_difference(const image& a, const image& b) {
  BOOST_REQUIRE(a.width == b.width && a.height == b.height);
  double sum = 0;
  for (std::size_t i = 0; i < a.px.size(); ++i)
    sum += std::abs(a.px[i].r - b.px[i].r) + std::abs(a.px[i].g - b.px[i].g) + std::abs(a.px[i].b - b.px[i].b);
  return sum / (3.0 * static_cast<double>(a.px.size()));
}

image decoded(const std::string& bytes) {
  image out;
  std::string error;
  BOOST_REQUIRE_MESSAGE(decode_image(bytes, out, error), error);
  return out;
}

void expect_refused(const std::string& bytes, const std::string& what) {
  image out;
  std::string error;
  BOOST_TEST_INFO(what);
  BOOST_TEST(!decode_image(bytes, out, error));
  BOOST_TEST(!error.empty());
}

// A PNG whose header claims w x h (with a valid CRC) over a tiny real image.
std::string png_claiming(uint32_t w, uint32_t h) {
  std::string png = png_of(halves(8, 8));
  for (int i = 0; i < 4; ++i) {
    png[16 + i] = static_cast<char>(w >> (24 - 8 * i));
    png[20 + i] = static_cast<char>(h >> (24 - 8 * i));
  }
  const uLong crc = crc32(0, reinterpret_cast<const Bytef*>(png.data() + 12), 17);
  for (int i = 0; i < 4; ++i) png[29 + i] = static_cast<char>(crc >> (24 - 8 * i));
  return png;
}

} // namespace

BOOST_AUTO_TEST_CASE(png_round_trips_to_eight_bits) {
  const image src = halves(64, 40);
  const image out = decoded(png_of(src));
  BOOST_REQUIRE(out.width == 64);
  BOOST_REQUIRE(out.height == 40);
  for (std::size_t i = 0; i < src.px.size(); ++i) {
    BOOST_TEST(std::abs(out.px[i].r - src.px[i].r) <= 0.5f / 255 + 1e-6f);
    BOOST_TEST(std::abs(out.px[i].b - src.px[i].b) <= 0.5f / 255 + 1e-6f);
  }
}

BOOST_AUTO_TEST_CASE(png_variants_decode) {
  const std::string png = png_of(halves(48, 32));
  const image reference = decoded(png);
  // Grey drops the hue and ffmpeg's palette without palettegen is coarse;
  // the rest are exact up to rounding.
  for (const auto& [pix_fmt, tolerance] : {std::pair{"rgba", 0.01}, std::pair{"rgb48be", 0.01}, std::pair{"pal8", 0.1},
                                          std::pair{"gray", 0.5}, std::pair{"ya8", 0.5}}) {
    BOOST_TEST_INFO(pix_fmt);
    const image out = decoded(ffmpeg_convert(png, ".png", std::string("-pix_fmt ") + pix_fmt));
    BOOST_TEST(out.width == 48);
    BOOST_TEST(out.height == 32);
    BOOST_TEST(mean_abs_difference(out, reference) < tolerance);
  }
}

BOOST_AUTO_TEST_CASE(transparent_pixels_become_white) {
  const std::string ffmpeg = svc::test::find_on_path("ffmpeg");
  BOOST_REQUIRE_MESSAGE(!ffmpeg.empty(), "ffmpeg not found on PATH");
  const svc::test::temp_file out("", ".png");
  BOOST_REQUIRE(svc::test::run_command(ffmpeg + " -v error -y -f lavfi -i color=c=red@0.0:s=16x16,format=rgba -frames:v 1 '" +
                                       out.path() + "'"));
  std::ifstream file(out.path(), std::ios::binary);
  const image img = decoded(std::string(std::istreambuf_iterator<char>(file), {}));
  BOOST_REQUIRE(img.width == 16);
  for (const auto& p : img.px) BOOST_TEST((p.r > 0.99f && p.g > 0.99f && p.b > 0.99f));
}

BOOST_AUTO_TEST_CASE(jpeg_decodes_close_to_its_source) {
  const image src = halves(96, 64);
  const image out = decoded(ffmpeg_convert(png_of(src), ".jpg", "-q:v 2"));
  BOOST_REQUIRE(out.width == 96);
  BOOST_REQUIRE(out.height == 64);
  BOOST_TEST(mean_abs_difference(out, src) < 0.04);
}

BOOST_AUTO_TEST_CASE(webp_lossy_and_lossless_decode) {
  const image src = halves(96, 64);
  const image lossy = decoded(ffmpeg_convert(png_of(src), ".webp", "-c:v libwebp -quality 90"));
  BOOST_REQUIRE(lossy.width == 96);
  BOOST_REQUIRE(lossy.height == 64);
  BOOST_TEST(mean_abs_difference(lossy, src) < 0.04);
  const image lossless = decoded(ffmpeg_convert(png_of(src), ".webp", "-c:v libwebp -lossless 1"));
  BOOST_TEST(mean_abs_difference(lossless, src) < 0.003);
}

BOOST_AUTO_TEST_CASE(cover_fit_scales_and_crops_the_centre) {
  const std::string wide = png_of(halves(200, 100));
  image out;
  std::string error;
  // 200x100 into a square: the centre 100x100 keeps red left, blue right.
  BOOST_REQUIRE_MESSAGE(decode_image_cover(wide, 50, 50, out, error), error);
  BOOST_REQUIRE(out.width == 50);
  BOOST_REQUIRE(out.height == 50);
  BOOST_TEST(out.at(5, 25).r > 0.8f);
  BOOST_TEST(out.at(44, 25).b > 0.8f);
  // Into something wider still: the full width survives, rows are cropped.
  BOOST_REQUIRE(decode_image_cover(wide, 400, 100, out, error));
  BOOST_TEST(out.at(10, 50).r > 0.8f);
  BOOST_TEST(out.at(390, 50).b > 0.8f);
  // Enlarging a tiny image is fine.
  BOOST_REQUIRE(decode_image_cover(png_of(halves(4, 2)), 768, 432, out, error));
  BOOST_TEST(out.width == 768);
  BOOST_TEST(out.at(0, 0).r > 0.8f);
  BOOST_TEST(out.at(767, 431).b > 0.8f);
  for (auto [w, h] : {std::pair{0, 10}, std::pair{10, 9000}}) BOOST_TEST(!decode_image_cover(wide, w, h, out, error));
}

BOOST_AUTO_TEST_CASE(equal_bytes_decode_to_equal_pixels) {
  const std::string jpeg = ffmpeg_convert(png_of(halves(80, 60)), ".jpg", "-q:v 5");
  image a, b;
  std::string error;
  BOOST_REQUIRE(decode_image_cover(jpeg, 64, 64, a, error));
  BOOST_REQUIRE(decode_image_cover(jpeg, 64, 64, b, error));
  BOOST_TEST(mean_abs_difference(a, b) == 0.0);
}

BOOST_AUTO_TEST_CASE(other_formats_and_garbage_are_refused) {
  expect_refused("", "empty");
  expect_refused("GIF89a\x01\x00\x01\x00", "GIF");
  expect_refused(std::string("\x89PNG\r\n\x1a\n", 8), "PNG signature only");
  expect_refused(std::string("\x89PNG\r\n\x1a\n", 8) + std::string(200, '\x42'), "PNG signature and garbage");
  expect_refused("\xff\xd8\xff" + std::string(300, '\x13'), "JPEG magic and garbage");
  expect_refused("RIFF\x10\x00\x00\x00WEBPVP8 " + std::string(100, '\x7f'), "WebP magic and garbage");
}

BOOST_AUTO_TEST_CASE(truncated_files_are_refused) {
  const std::string png = png_of(halves(64, 64));
  const std::string jpeg = ffmpeg_convert(png, ".jpg", "-q:v 2");
  const std::string webp = ffmpeg_convert(png, ".webp", "-c:v libwebp -quality 80");
  for (const auto& [name, file] : {std::pair{"PNG", png}, std::pair{"JPEG", jpeg}, std::pair{"WebP", webp}}) {
    BOOST_REQUIRE(decoded(file).width == 64);
    for (const double keep : {0.2, 0.5, 0.9}) expect_refused(file.substr(0, static_cast<std::size_t>(file.size() * keep)), name);
  }
}

// Refused for the size the header claims, before any pixel is decoded: the
// error says which check refused it (not how long it took, which a tiny body
// cannot show).
void expect_refused_for_size(const std::string& bytes, const std::string& why) {
  image out;
  std::string error;
  BOOST_TEST_INFO(why);
  BOOST_TEST(!decode_image(bytes, out, error));
  BOOST_TEST(error.find(why) != std::string::npos, error);
}

BOOST_AUTO_TEST_CASE(oversized_dimensions_are_refused_quickly) {
  expect_refused_for_size(png_claiming(9000, 10), "PNG image is 9000x10");
  expect_refused_for_size(png_claiming(10, 8193), "PNG image is 10x8193");
  // libavcodec's own pixel limit (set from max_pixels) refuses 49 megapixels.
  expect_refused_for_size(png_claiming(7000, 7000), "Invalid argument");
  expect_refused(png_claiming(0x7fffffff, 0x7fffffff), "2^31 a side");
  std::string jpeg = ffmpeg_convert(png_of(halves(32, 32)), ".jpg", "-q:v 2");
  const auto sof = jpeg.find("\xff\xc0");
  BOOST_REQUIRE(sof != std::string::npos);
  jpeg[sof + 7] = static_cast<char>(0xff); // width 0xff20: 65312 pixels
  expect_refused(jpeg, "JPEG 65312 wide");
  image out;
  std::string error;
  BOOST_TEST(!decode_image(png_of(halves(40, 40)), out, error, {32, 40'000'000}));
  BOOST_TEST(error.find("40x40") != std::string::npos);
  BOOST_TEST(!decode_image(png_of(halves(40, 40)), out, error, {8192, 1000}));
}

BOOST_AUTO_TEST_CASE(mutated_files_never_crash) {
  // A small fuzz pass: flipped bytes and cuts anywhere. Decoding may succeed
  // or fail, but must return, within the limits, every time.
  const std::string png = png_of(halves(48, 48));
  const std::string inputs[] = {png, ffmpeg_convert(png, ".jpg", "-q:v 3"),
                                ffmpeg_convert(png, ".webp", "-c:v libwebp -quality 70"),
                                ffmpeg_convert(png, ".webp", "-c:v libwebp -lossless 1")};
  rng random(svc::core::sha256("image decoder fuzz"));
  for (const auto& input : inputs)
    for (int round = 0; round < 150; ++round) {
      std::string bytes = input;
      const int flips = 1 + random.below(8);
      for (int i = 0; i < flips; ++i)
        bytes[static_cast<std::size_t>(random.below(static_cast<int>(bytes.size())))] = static_cast<char>(random.below(256));
      if (random.chance(0.3f)) bytes.resize(static_cast<std::size_t>(random.below(static_cast<int>(bytes.size()))));
      image out;
      std::string error;
      if (decode_image(bytes, out, error)) {
        BOOST_TEST(out.width * out.height <= decode_limits{}.max_pixels);
        BOOST_TEST(out.px.size() == static_cast<std::size_t>(out.width) * out.height);
      } else {
        BOOST_TEST(!error.empty());
      }
    }
}

// The decoder's default limits are the upload limit's default (--max-upload-pixels 4096x4096).
BOOST_AUTO_TEST_CASE(default_limits_match_the_upload_limit) {
  BOOST_TEST(decode_limits{}.max_pixels == svc::core::config{}.max_upload_pixels);
  BOOST_TEST(decode_limits{}.max_pixels == 4096 * 4096);
}

BOOST_AUTO_TEST_SUITE_END()
