#include "fake_media.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>

#include "core/memory_file.hpp"
#include "media_probe.hpp"
#include "providers/image.hpp"
#include "providers/mp4_encoder.hpp"
#include "providers/png_writer.hpp"

namespace svc::test {

// The same colour rule as the A1111 stand-in, so seeds mean the same picture in every fake.
std::string fake_png(int w, int h, std::uint64_t seed) {
  providers::image img(w, h);
  const float r = static_cast<float>(seed % 7) / 6.0f, g = static_cast<float>((seed / 7) % 7) / 6.0f;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      img.at(x, y) = {r, g, static_cast<float>(x + y) / static_cast<float>(w + h)};
  std::string out, error;
  providers::encode_png(img, {}, out, error);
  return out;
}

std::string fake_mp4(int w, int h, int frames, int fps) {
  core::memory_file file;
  providers::mp4_encoder enc;
  std::string error;
  if (!enc.open(w, h, std::max(fps, 1), file, error))
    return {};
  for (int f = 0; f < frames; ++f)
    enc.push([&](int y, providers::rgb* row) {
      for (int x = 0; x < w; ++x)
        row[x] = {static_cast<float>(f) / static_cast<float>(frames), static_cast<float>(y) / h, 0.5f};
    }, error);
  enc.finish(error);
  return file.take();
}

std::string fake_webm(int w, int h, int frames, int fps, const std::string& suffix) {
  const std::string ffmpeg = find_on_path("ffmpeg");
  if (ffmpeg.empty())
    return {};
  const temp_file out("", suffix);
  const std::string source = "testsrc=s=" + std::to_string(w) + "x" + std::to_string(h) + ":r=" + std::to_string(fps);
  if (!run_command(ffmpeg + " -v error -y -f lavfi -i " + source + " -frames:v " + std::to_string(frames) +
                   " -c:v libvpx-vp9 -deadline realtime '" + out.path() + "'"))
    return {};
  std::ifstream in(out.path(), std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

} // namespace svc::test
