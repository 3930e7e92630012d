#pragma once
// Checks outputs from outside our code, for unit and e2e tests alike: MP4
// top-level boxes read by hand, the video stream as ffprobe (found on PATH)
// reports it, frames decoded by the ffmpeg CLI, and test pictures made by it
// (so JPEG and WebP inputs do not come from the decoder under test).

#include <unistd.h>

#include <boost/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace svc::test {

/// The full path of `program` in a PATH directory, or empty.
inline std::string find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

/// A file under the temp directory, removed when this goes out of scope.
class temp_file {
public:
  /// Writes `bytes` to a fresh file whose name ends with `suffix` (`.mp4`).
  temp_file(const std::string& bytes, const std::string& suffix) {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir != nullptr ? dir : "/tmp") + "/svc-test-XXXXXX" + suffix;
    const int fd = ::mkstemps(pattern.data(), static_cast<int>(suffix.size()));
    if (fd < 0) return;
    ::close(fd);
    path_ = pattern;
    std::ofstream(path_, std::ios::binary) << bytes;
  }
  ~temp_file() {
    if (!path_.empty()) std::remove(path_.c_str());
  }
  temp_file(const temp_file&) = delete;
  temp_file& operator=(const temp_file&) = delete;

  /// Empty when the file could not be created.
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

/// Runs a shell command; its stdout, or nullopt when it exits non-zero.
inline std::optional<std::string> run_command(const std::string& command) {
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  return ::pclose(pipe) == 0 ? std::optional<std::string>(out) : std::nullopt;
}

/// The first video stream of a file as ffprobe sees it.
struct video_probe {
  std::string codec_name;
  std::string pix_fmt;
  int width = 0;
  int height = 0;
  long nb_frames = 0;
  double duration = 0; ///< seconds, of the stream
};

/// ffprobe's view of `mp4`; nullopt with the reason in `error` when ffprobe is
/// missing, fails, or finds no video stream.
inline std::optional<video_probe> probe_video(const std::string& mp4, std::string& error) {
  const std::string ffprobe = find_on_path("ffprobe");
  if (ffprobe.empty()) {
    error = "ffprobe not found on PATH (Debian package ffmpeg; scripts/setup installs it)";
    return std::nullopt;
  }
  const temp_file file(mp4, ".mp4");
  const auto out = run_command(ffprobe + " -v error -show_streams -show_format -of json '" + file.path() + "'");
  if (!out) {
    error = "ffprobe failed on the MP4";
    return std::nullopt;
  }
  boost::system::error_code ec;
  const auto doc = boost::json::parse(*out, ec);
  if (ec || !doc.is_object() || !doc.as_object().contains("streams")) {
    error = "ffprobe printed no streams: " + *out;
    return std::nullopt;
  }
  for (const auto& s : doc.at("streams").as_array()) {
    const auto& o = s.as_object();
    if (!o.contains("codec_type") || o.at("codec_type") != "video") continue;
    auto text = [&](const char* key) {
      return o.contains(key) && o.at(key).is_string() ? std::string(o.at(key).as_string()) : std::string();
    };
    video_probe p;
    p.codec_name = text("codec_name");
    p.pix_fmt = text("pix_fmt");
    p.width = o.contains("width") ? static_cast<int>(o.at("width").as_int64()) : 0;
    p.height = o.contains("height") ? static_cast<int>(o.at("height").as_int64()) : 0;
    p.nb_frames = std::atol(text("nb_frames").c_str());
    p.duration = std::atof(text("duration").c_str());
    return p;
  }
  error = "no video stream in: " + *out;
  return std::nullopt;
}

/// The picture type of every frame of `mp4` in decoding order (`IPPB...`),
/// as ffprobe reads them; nullopt with the reason in `error`.
inline std::optional<std::string> frame_types(const std::string& mp4, std::string& error) {
  const std::string ffprobe = find_on_path("ffprobe");
  if (ffprobe.empty()) {
    error = "ffprobe not found on PATH (Debian package ffmpeg; scripts/setup installs it)";
    return std::nullopt;
  }
  const temp_file file(mp4, ".mp4");
  const auto out =
    run_command(ffprobe + " -v error -select_streams v:0 -show_entries frame=pict_type -of csv=p=0 '" + file.path() + "'");
  if (!out) {
    error = "ffprobe failed on the MP4";
    return std::nullopt;
  }
  std::string types; // one letter a frame; ffprobe adds separators and empty lines for side data
  for (char c : *out)
    if (c >= 'A' && c <= 'Z') types += c;
  return types;
}

/// What every video output must be: an `ftyp` box first, then (as ffprobe
/// reads it) an H.264 yuv420p stream of `width` x `height` with `frames`
/// frames lasting `seconds` (within one frame). Empty when it is; otherwise
/// what differs, for the assertion message.
inline std::string h264_mp4_mismatch(const std::string& mp4, int width, int height, long frames, double seconds) {
  if (mp4.size() < 8 || mp4.compare(4, 4, "ftyp") != 0) return "the file does not start with an ftyp box";
  std::string error;
  const auto p = probe_video(mp4, error);
  if (!p) return error;
  std::ostringstream got;
  got << p->codec_name << " " << p->pix_fmt << " " << p->width << "x" << p->height << ", " << p->nb_frames
      << " frames, " << p->duration << " s";
  const bool ok = p->codec_name == "h264" && p->pix_fmt == "yuv420p" && p->width == width && p->height == height &&
                  p->nb_frames == frames && std::abs(p->duration - seconds) <= seconds / frames + 1e-6;
  return ok ? std::string() : "expected h264 yuv420p " + std::to_string(width) + "x" + std::to_string(height) + ", " +
                                  std::to_string(frames) + " frames, " + std::to_string(seconds) + " s; got " + got.str();
}

/// Every frame of `mp4` as packed 8-bit RGB, decoded by the ffmpeg CLI;
/// nullopt with the reason in `error` when ffmpeg is missing or fails.
inline std::optional<std::string> decode_frames_rgb24(const std::string& mp4, std::string& error) {
  const std::string ffmpeg = find_on_path("ffmpeg");
  if (ffmpeg.empty()) {
    error = "ffmpeg not found on PATH (Debian package ffmpeg; scripts/setup installs it)";
    return std::nullopt;
  }
  const temp_file file(mp4, ".mp4");
  auto raw = run_command(ffmpeg + " -v error -i '" + file.path() + "' -f rawvideo -pix_fmt rgb24 -");
  if (!raw) error = "ffmpeg failed to decode the MP4";
  return raw;
}

/// The first frame of an image or video file scaled to `width` x `height`, as
/// packed 8-bit RGB decoded by the ffmpeg CLI; nullopt with the reason in `error`.
inline std::optional<std::string> first_frame_rgb(const std::string& bytes, int width, int height,
                                                  std::string& error) {
  const std::string ffmpeg = find_on_path("ffmpeg");
  if (ffmpeg.empty()) {
    error = "ffmpeg not found on PATH (Debian package ffmpeg; scripts/setup installs it)";
    return std::nullopt;
  }
  const temp_file file(bytes, ".input");
  const auto size = std::to_string(width) + "x" + std::to_string(height);
  auto raw = run_command(ffmpeg + " -v error -i '" + file.path() + "' -frames:v 1 -s " + size
                         + " -f rawvideo -pix_fmt rgb24 -");
  if (!raw || raw->size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3) {
    error = "ffmpeg could not decode a " + size + " frame";
    return std::nullopt;
  }
  return raw;
}

/// The first frame of an ffmpeg lavfi `source` (`color=c=red:s=64x64`, no
/// single quotes) encoded as `extension` (`png`, `jpg`, `webp`); nullopt with
/// the reason in `error`.
inline std::optional<std::string> lavfi_image(const std::string& source, const std::string& extension,
                                              std::string& error) {
  const std::string ffmpeg = find_on_path("ffmpeg");
  if (ffmpeg.empty()) {
    error = "ffmpeg not found on PATH (Debian package ffmpeg; scripts/setup installs it)";
    return std::nullopt;
  }
  const temp_file file("", "." + extension);
  if (!run_command(ffmpeg + " -v error -f lavfi -i '" + source + "' -frames:v 1 -y '" + file.path() + "'")) {
    error = "ffmpeg could not make a ." + extension + " from " + source;
    return std::nullopt;
  }
  std::ifstream in(file.path(), std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// Mean absolute difference per channel (0..255) of two equal-sized RGB
/// buffers; -1 when their sizes differ or they are empty.
inline double mean_abs_difference(std::string_view a, std::string_view b) {
  if (a.size() != b.size() || a.empty()) return -1;
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    sum += std::abs(static_cast<int>(static_cast<unsigned char>(a[i])) - static_cast<int>(static_cast<unsigned char>(b[i])));
  return sum / static_cast<double>(a.size());
}

/// Types of the top-level boxes of an MP4 in file order (`ftyp`, `moov`, ...);
/// stops at the first malformed size.
inline std::vector<std::string> top_level_boxes(std::string_view mp4) {
  std::vector<std::string> boxes;
  for (std::size_t at = 0; at + 8 <= mp4.size();) {
    uint64_t size = 0;
    for (int i = 0; i < 4; ++i) size = size << 8 | static_cast<unsigned char>(mp4[at + i]);
    const std::size_t header = size == 1 ? 16 : 8;
    if (size == 1 && at + 16 <= mp4.size()) {
      size = 0;
      for (int i = 8; i < 16; ++i) size = size << 8 | static_cast<unsigned char>(mp4[at + i]);
    }
    if (size < header || size > mp4.size() - at) break;
    boxes.emplace_back(mp4.substr(at + 4, 4));
    at += size;
  }
  return boxes;
}

} // namespace svc::test
