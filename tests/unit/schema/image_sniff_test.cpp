#include "schema/image_sniff.hpp"

#include <boost/test/unit_test.hpp>

#include <fstream>
#include <random>
#include <sstream>
#include <string>

BOOST_AUTO_TEST_SUITE(schema_image_sniff)

namespace {

using svc::schema::sniff_image;

std::string fixture(const std::string& name) {
  std::ifstream in{std::string{SVC_TEST_DATA_DIR} + "/" + name, std::ios::binary};
  BOOST_REQUIRE_MESSAGE(in, "cannot read test data " << name);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string be32(uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
}
std::string be16(uint32_t v) { return {static_cast<char>(v >> 8), static_cast<char>(v)}; }
std::string le16(uint32_t v) { return {static_cast<char>(v), static_cast<char>(v >> 8)}; }
std::string le24(uint32_t v) { return le16(v) + static_cast<char>(v >> 16); }
std::string le32(uint32_t v) { return le24(v) + static_cast<char>(v >> 24); }

std::string png(uint32_t w, uint32_t h) {
  return std::string{"\x89PNG\r\n\x1a\n", 8} + be32(13) + "IHDR" + be32(w) + be32(h) + std::string{"\x08\x06\0\0\0", 5}
         + be32(0);
}

// SOI, an APP0 segment, then a frame header of `sof`.
std::string jpeg(uint32_t w, uint32_t h, unsigned char sof = 0xC0) {
  std::string app0 = std::string{"\xff\xe0", 2} + be16(16) + std::string{"JFIF\0\x01\x02\0\0\x01\0\x01\0\0", 14};
  std::string frame = std::string{"\xff", 1} + static_cast<char>(sof) + be16(17) + '\x08' + be16(h) + be16(w)
                      + std::string(12, '\x01');
  return std::string{"\xff\xd8", 2} + app0 + frame;
}

std::string riff(const std::string& fourcc, const std::string& chunk) {
  return "RIFF" + le32(static_cast<uint32_t>(12 + chunk.size())) + "WEBP" + fourcc + le32(static_cast<uint32_t>(chunk.size()))
         + chunk;
}

std::string webp_lossy(uint32_t w, uint32_t h) {
  return riff("VP8 ", std::string{"\x10\x02\x00\x9d\x01\x2a", 6} + le16(w) + le16(h) + std::string(8, '\0'));
}

std::string webp_lossless(uint32_t w, uint32_t h) {
  return riff("VP8L", "\x2f" + le32((w - 1) | (h - 1) << 14) + std::string(8, '\0'));
}

std::string webp_extended(uint32_t w, uint32_t h) {
  return riff("VP8X", std::string{"\x10\0\0\0", 4} + le24(w - 1) + le24(h - 1));
}

void check(const std::string& bytes, std::string_view type, int w, int h) {
  auto s = sniff_image(bytes);
  BOOST_TEST_REQUIRE(s.has_value());
  BOOST_TEST(s->content_type == type);
  BOOST_TEST(s->width == w);
  BOOST_TEST(s->height == h);
}

} // namespace

BOOST_AUTO_TEST_CASE(real_files_made_by_ffmpeg) {
  check(fixture("tiny.png"), "image/png", 64, 48);
  check(fixture("tiny.jpg"), "image/jpeg", 80, 60);
  check(fixture("tiny.webp"), "image/webp", 72, 40);
  check(fixture("tiny_lossless.webp"), "image/webp", 33, 17);
  check(fixture("tiny_alpha.webp"), "image/webp", 20, 10);
  BOOST_TEST(!sniff_image(fixture("tiny.gif")));
}

BOOST_AUTO_TEST_CASE(built_headers) {
  check(png(1, 1), "image/png", 1, 1);
  check(png(2147483647, 3), "image/png", 2147483647, 3);
  check(jpeg(640, 480), "image/jpeg", 640, 480);
  check(jpeg(65535, 1, 0xC2), "image/jpeg", 65535, 1); // progressive
  check(jpeg(7, 9, 0xCF), "image/jpeg", 7, 9);
  check(webp_lossy(16383, 2), "image/webp", 16383, 2);
  check(webp_lossless(16384, 16384), "image/webp", 16384, 16384);
  check(webp_extended(1 << 24, 5), "image/webp", 1 << 24, 5);
}

BOOST_AUTO_TEST_CASE(jpeg_walks_segments_and_fill_bytes) {
  auto j = jpeg(300, 200);
  // A DHT segment (C4 is no frame) and fill bytes before the frame header.
  auto with_dht = j.substr(0, 20) + std::string{"\xff\xc4", 2} + be16(5) + "abc" + std::string{"\xff\xff\xff", 3}
                  + j.substr(20);
  check(with_dht, "image/jpeg", 300, 200);
  // A restart marker has no length.
  check(j.substr(0, 20) + std::string{"\xff\xd3", 2} + j.substr(20), "image/jpeg", 300, 200);
  // A scan or the end before any frame header: nothing to size.
  BOOST_TEST(!sniff_image(j.substr(0, 20) + std::string{"\xff\xda", 2} + be16(8) + j.substr(20)));
  BOOST_TEST(!sniff_image(j.substr(0, 20) + std::string{"\xff\xd9", 2} + j.substr(20)));
  // A segment whose length runs past the buffer, or is below 2.
  BOOST_TEST(!sniff_image(std::string{"\xff\xd8\xff\xe0\xff\xff", 6}));
  BOOST_TEST(!sniff_image(std::string{"\xff\xd8\xff\xe0\x00\x01", 6} + j.substr(2)));
  // Bytes that are not a marker where one is due.
  BOOST_TEST(!sniff_image(std::string{"\xff\xd8\x00\xff\xc0", 5} + j.substr(22)));
}

BOOST_AUTO_TEST_CASE(zero_sizes_and_broken_headers_are_nothing) {
  BOOST_TEST(!sniff_image(png(0, 10)));
  BOOST_TEST(!sniff_image(png(10, 0)));
  BOOST_TEST(!sniff_image(png(2147483648u, 1)));
  auto bad_ihdr_length = png(4, 4);
  bad_ihdr_length[11] = 12;
  BOOST_TEST(!sniff_image(bad_ihdr_length));
  BOOST_TEST(!sniff_image(jpeg(0, 5)));
  BOOST_TEST(!sniff_image(jpeg(5, 0)));
  BOOST_TEST(!sniff_image(webp_lossy(0, 4)));
  auto inter_frame = webp_lossy(4, 4);
  inter_frame[20] |= 1;
  BOOST_TEST(!sniff_image(inter_frame));
  auto bad_start_code = webp_lossy(4, 4);
  bad_start_code[24] = 0;
  BOOST_TEST(!sniff_image(bad_start_code));
  auto bad_signature = webp_lossless(4, 4);
  bad_signature[20] = 0x2e;
  BOOST_TEST(!sniff_image(bad_signature));
  BOOST_TEST(!sniff_image(riff("ALPH", std::string(16, '\0'))));
}

BOOST_AUTO_TEST_CASE(other_content_is_nothing) {
  for (std::string other : {std::string{}, std::string{"GIF89a\x01\x00\x01\x00"}, std::string{"hello, world\n"},
                            std::string{"%PDF-1.7\n"}, std::string{"\x89PNG"}, std::string{"\xff\xd8"},
                            std::string{"RIFF\0\0\0\0WAVEfmt ", 16}, std::string{"<svg width='5'/>"}})
    BOOST_TEST(!sniff_image(other), "sniffed " << other.size() << " bytes");
}

// A header cut anywhere is nothing; once the header is whole the rest of
// the file does not matter.
BOOST_AUTO_TEST_CASE(every_truncation_is_nothing_or_the_whole_answer) {
  for (auto name : {"tiny.png", "tiny.jpg", "tiny.webp", "tiny_lossless.webp", "tiny_alpha.webp"}) {
    auto file = fixture(name);
    auto whole = sniff_image(file);
    BOOST_TEST_REQUIRE(whole.has_value());
    bool seen_whole = false;
    for (std::size_t n = 0; n <= file.size(); ++n) {
      // A copy of exactly n bytes, so a read past the end is a heap overflow under ASan.
      std::string prefix = file.substr(0, n);
      auto s = sniff_image(prefix);
      if (s) {
        BOOST_TEST(s->content_type == whole->content_type, name << " at " << n);
        BOOST_TEST(s->width == whole->width);
        BOOST_TEST(s->height == whole->height);
      }
      BOOST_TEST(!(seen_whole && !s), name << ": a longer prefix lost the answer at " << n);
      seen_whole = seen_whole || s.has_value();
    }
    BOOST_TEST(seen_whole);
  }
}

BOOST_AUTO_TEST_CASE(random_and_mutated_bytes_never_read_past_the_buffer) {
  std::mt19937 rng{20260115};
  std::uniform_int_distribution<int> byte{0, 255};
  std::vector<std::string> seeds{png(3, 4), jpeg(5, 6), webp_lossy(7, 8), webp_lossless(9, 10), webp_extended(11, 12),
                                 fixture("tiny.jpg")};
  for (int i = 0; i < 20000; ++i) {
    std::string bytes;
    if (i % 2 == 0) {
      bytes.resize(static_cast<std::size_t>(rng() % 64));
      for (auto& c : bytes)
        c = static_cast<char>(byte(rng));
      if (i % 4 == 0 && bytes.size() >= 2) { // random segments after a JPEG SOI
        bytes[0] = '\xff';
        bytes[1] = '\xd8';
      }
    } else {
      bytes = seeds[static_cast<std::size_t>(i) % seeds.size()];
      for (int k = 0; k < 3; ++k)
        bytes[rng() % bytes.size()] = static_cast<char>(byte(rng));
      bytes.resize(rng() % (bytes.size() + 1));
    }
    if (auto s = sniff_image(bytes)) {
      BOOST_TEST((s->width > 0 && s->height > 0));
      BOOST_TEST((s->content_type == "image/png" || s->content_type == "image/jpeg" || s->content_type == "image/webp"));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
