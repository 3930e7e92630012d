#include "support/media_probe.hpp"

#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <unistd.h>

#include <boost/json.hpp>

#include "support/json_util.hpp"
#include "support/process.hpp"

namespace svc::e2e {
namespace {

double number_of(const boost::json::value& v, std::string_view path) {
  auto text = json_str(v, path); // ffprobe writes numbers as strings
  try {
    return text.empty() ? 0 : std::stod(text);
  } catch (const std::exception&) {
    return 0;
  }
}

// Runs `command` (a shell line reading `$IN`) on `bytes`; its stdout, or nothing with `error` set.
std::optional<std::string> run_on_bytes(std::string_view bytes, const std::string& command, std::string& error) {
  auto dir = make_temp_dir("svc-media");
  auto input = dir + "/input", output = dir + "/output", log = dir + "/log";
  std::ofstream(input, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  int out = ::open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  int err = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  auto pid = spawn({"/bin/sh", "-c", "IN=\"" + input + "\"; " + command}, out, err);
  ::close(out);
  ::close(err);
  auto status = wait_exit(pid, std::chrono::seconds{30});
  auto text = read_file(output);
  auto diagnostics = read_file(log);
  for (auto* f : {&input, &output, &log})
    std::remove(f->c_str());
  ::rmdir(dir.c_str());
  if (!status || *status != 0) {
    error = command.substr(0, command.find(' ')) + " failed (exit "
            + (status ? std::to_string(*status) : std::string{"timeout"}) + "): " + diagnostics;
    return std::nullopt;
  }
  return text;
}

} // namespace

std::optional<video_probe> probe_video(std::string_view bytes, std::string& error) {
  auto text = run_on_bytes(
    bytes, "exec ffprobe -v error -select_streams v:0 -count_packets -show_streams -show_format -of json \"$IN\"",
    error);
  if (!text)
    return std::nullopt;
  boost::system::error_code ec;
  auto doc = boost::json::parse(*text, ec);
  if (ec || json_size(doc, "streams") < 1) {
    error = "ffprobe found no video stream: " + text->substr(0, 400);
    return std::nullopt;
  }
  auto& stream = doc.at("streams").as_array().at(0);
  video_probe p;
  p.codec = json_str(stream, "codec_name");
  p.pixel_format = json_str(stream, "pix_fmt");
  p.width = static_cast<int>(json_int(stream, "width").value_or(0));
  p.height = static_cast<int>(json_int(stream, "height").value_or(0));
  p.frames = static_cast<long>(number_of(stream, "nb_read_packets"));
  p.seconds = number_of(doc, "format.duration");
  p.format = json_str(doc, "format.format_name");
  return p;
}

std::optional<std::string> first_frame_rgb(std::string_view bytes, int width, int height, std::string& error) {
  auto size = std::to_string(width) + "x" + std::to_string(height);
  auto rgb = run_on_bytes(bytes,
                          "exec ffmpeg -v error -i \"$IN\" -frames:v 1 -s " + size + " -f rawvideo -pix_fmt rgb24 -",
                          error);
  if (rgb && rgb->size() != static_cast<std::size_t>(width) * height * 3) {
    error = "ffmpeg wrote " + std::to_string(rgb->size()) + " bytes for a " + size + " frame";
    return std::nullopt;
  }
  return rgb;
}

std::optional<std::string> lavfi_image(const std::string& source, const std::string& extension, std::string& error) {
  return run_on_bytes({},
                      "OUT=\"$IN." + extension + "\"; ffmpeg -v error -f lavfi -i '" + source
                        + "' -frames:v 1 -y \"$OUT\" && cat \"$OUT\" && rm -f \"$OUT\"",
                      error);
}

double mean_abs_difference(std::string_view a, std::string_view b) {
  if (a.size() != b.size() || a.empty())
    return -1;
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    sum += std::abs(int(static_cast<unsigned char>(a[i])) - int(static_cast<unsigned char>(b[i])));
  return sum / static_cast<double>(a.size());
}

} // namespace svc::e2e
