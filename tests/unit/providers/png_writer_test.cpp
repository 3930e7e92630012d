#include "providers/png_writer.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <png.h>

#include "png_header.hpp"

BOOST_AUTO_TEST_SUITE(providers_png_writer)

using namespace svc::providers;

namespace {

// Decodes with libpng's simplified reader into 8-bit RGB.
std::vector<unsigned char> decode(const std::string& png, int& w, int& h) {
  png_image im{};
  im.version = PNG_IMAGE_VERSION;
  BOOST_REQUIRE(png_image_begin_read_from_memory(&im, png.data(), png.size()));
  im.format = PNG_FORMAT_RGB;
  std::vector<unsigned char> pixels(PNG_IMAGE_SIZE(im));
  BOOST_REQUIRE(png_image_finish_read(&im, nullptr, pixels.data(), 0, nullptr));
  w = static_cast<int>(im.width);
  h = static_cast<int>(im.height);
  return pixels;
}

image gradient(int w, int h) {
  image img(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      img.at(x, y) = {static_cast<float>(x) / static_cast<float>(w - 1), static_cast<float>(y) / static_cast<float>(h - 1), 0.5f};
  return img;
}

} // namespace

BOOST_AUTO_TEST_CASE(writes_an_8_bit_rgb_png_with_the_image_size) {
  std::string out, error;
  BOOST_REQUIRE(encode_png(gradient(37, 21), {}, out, error));
  const auto header = svc::test::parse_png_header(out);
  BOOST_REQUIRE(header);
  BOOST_TEST(header->width == 37u);
  BOOST_TEST(header->height == 21u);
  BOOST_TEST(header->bit_depth == 8);
  BOOST_TEST(header->color_type == 2);
  BOOST_TEST(header->interlace == 0);
  BOOST_TEST(svc::test::ends_with_iend(out));
}

BOOST_AUTO_TEST_CASE(pixels_round_trip_through_a_decoder) {
  const image img = gradient(64, 48);
  std::string out, error;
  BOOST_REQUIRE(encode_png(img, {}, out, error));
  int w = 0, h = 0;
  const auto px = decode(out, w, h);
  BOOST_REQUIRE(w == 64);
  BOOST_REQUIRE(h == 48);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const auto* p = &px[(static_cast<std::size_t>(y) * w + x) * 3];
      const rgb c = img.at(x, y);
      BOOST_TEST_INFO("pixel " << x << "," << y);
      BOOST_TEST(p[0] == static_cast<int>(std::lround(c.r * 255.f)));
      BOOST_TEST(p[1] == static_cast<int>(std::lround(c.g * 255.f)));
      BOOST_TEST(p[2] == 128);
    }
}

BOOST_AUTO_TEST_CASE(out_of_range_and_nan_channels_are_clamped) {
  image img(3, 1);
  img.at(0, 0) = {-1.f, 2.f, 0.f};
  img.at(1, 0) = {std::numeric_limits<float>::quiet_NaN(), 1.f, 1e30f};
  img.at(2, 0) = {-std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity(), 0.5f};
  std::string out, error;
  BOOST_REQUIRE(encode_png(img, {}, out, error));
  int w = 0, h = 0;
  const auto px = decode(out, w, h);
  const std::vector<unsigned char> want{0, 255, 0, 0, 255, 255, 0, 255, 128};
  BOOST_TEST(px == want, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(every_compression_level_decodes_alike) {
  const image img = gradient(50, 30);
  std::vector<unsigned char> first;
  for (int level = 0; level <= 9; ++level) {
    std::string out, error;
    BOOST_REQUIRE(encode_png(img, {level}, out, error));
    int w = 0, h = 0;
    auto px = decode(out, w, h);
    if (level == 0) first = px;
    BOOST_TEST(px == first);
  }
}

BOOST_AUTO_TEST_CASE(appends_to_the_output_string) {
  std::string out = "prefix", error;
  BOOST_REQUIRE(encode_png(gradient(8, 8), {}, out, error));
  BOOST_TEST(out.substr(0, 6) == "prefix");
  BOOST_TEST(svc::test::parse_png_header(std::string_view(out).substr(6)).has_value());
}

BOOST_AUTO_TEST_CASE(an_empty_image_is_an_error) {
  std::string out, error;
  BOOST_TEST(!encode_png(image{}, {}, out, error));
  BOOST_TEST(!error.empty());
}

BOOST_AUTO_TEST_CASE(a_bad_compression_level_is_reported_not_thrown) {
  std::string out, error;
  BOOST_TEST(!encode_png(gradient(8, 8), {42}, out, error));
  BOOST_TEST(!error.empty());
}

BOOST_AUTO_TEST_SUITE_END()
