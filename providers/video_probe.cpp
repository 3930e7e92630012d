#include "providers/video_probe.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <sstream>

extern "C" {
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
}

#include "providers/libav_handles.hpp"

// Only the container is read; no picture is decoded. Its header holds all
// that is checked (codec, size, frame count, duration), and decoding untrusted
// pictures would cost time and memory and expose the decoders for nothing.
// The packets are read through all the same, so a file cut short or damaged
// after its header is caught here rather than by the client's player.

namespace svc::providers {

namespace {

// The demuxers an engine's video plausibly comes in (by the first of their
// names): the two Svc serves and a few more, so a wrong container is named in
// the job's failure. No other demuxer ever reads engine bytes: image readers
// (a PNG is no video), playlists that open further files, raw streams guessed
// from noise.
constexpr std::string_view probe_demuxers[] = {"mov", "matroska", "avi", "flv", "mpegts", "ogg"};
constexpr int probe_io_buffer_size = 32 * 1024;
// What libavformat may read to recognise the container (its default is 5 MB).
constexpr unsigned probe_recognise_bytes = 1u << 20;
// A video with its audio, subtitles and timecode has a handful of streams.
constexpr int probe_max_streams = 16;
// Bounds the time spent on a file that claims endless frames; a long video
// asked of Svc has a few thousand.
constexpr int probe_max_packets = 100000;
// Matroska's EBML header, where the document type is named, fits in these.
constexpr int64_t probe_ebml_head_bytes = 256;

// The file libavformat reads: `bytes` in memory, or the descriptor `fd` read
// with pread; `pos` is libavformat's cursor.
struct probe_input {
  std::string_view bytes;
  int fd = -1;
  int64_t size = 0;
  int64_t pos = 0;
};

// Reads up to `n` bytes from `at`: how many (0 at or past the end), or a negative AVERROR.
int64_t probe_read_at(const probe_input& in, int64_t at, uint8_t* buf, int64_t n) {
  n = std::min(n, in.size - at);
  if (n <= 0) return 0;
  if (in.fd < 0) {
    std::memcpy(buf, in.bytes.data() + at, static_cast<std::size_t>(n));
    return n;
  }
  const ssize_t got = ::pread(in.fd, buf, static_cast<std::size_t>(n), at);
  return got < 0 ? AVERROR(errno) : got;
}

// Callbacks run inside libavformat's C code: none of them may throw.
int probe_read(void* opaque, uint8_t* buf, int size) {
  auto& in = *static_cast<probe_input*>(opaque);
  const int64_t n = probe_read_at(in, in.pos, buf, size);
  if (n <= 0) return n < 0 ? static_cast<int>(n) : AVERROR_EOF;
  in.pos += n;
  return static_cast<int>(n);
}

// New position after a seek (past the end is allowed, as in a file; reads
// there find nothing), or a negative AVERROR; AVSEEK_SIZE asks for the size.
// A hostile file may send the demuxer to any 64-bit offset.
int64_t probe_seek(void* opaque, int64_t offset, int whence) {
  auto& in = *static_cast<probe_input*>(opaque);
  whence &= ~AVSEEK_FORCE;
  if (whence == AVSEEK_SIZE) return in.size;
  const int64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? in.pos : whence == SEEK_END ? in.size : -1;
  if (base < 0 || offset < -base || offset > INT64_MAX - base) return AVERROR(EINVAL);
  return in.pos = base + offset;
}

// The video is these bytes alone: a reference to another file (QuickTime's
// data references, say) is refused rather than followed.
int probe_refuse_open(AVFormatContext*, AVIOContext**, const char*, int, AVDictionary**) { return AVERROR(EPERM); }

// Frees the I/O context with its buffer, which libavformat may have swapped for one of its own.
struct probe_io_deleter {
  void operator()(AVIOContext* io) const {
    av_freep(&io->buffer);
    avio_context_free(&io);
  }
};

struct probe_demuxer_deleter {
  void operator()(AVFormatContext* f) const { avformat_close_input(&f); }
};

struct probe_descriptor {
  int fd;
  ~probe_descriptor() { ::close(fd); }
};

// The DocType of the EBML header at the start of `head`, or empty. libavformat
// reads Matroska and WebM alike and keeps the name to itself; it is what tells
// a WebM from another Matroska file.
std::string ebml_doctype(std::string_view head) {
  std::size_t at = 0;
  // The EBML variable-length integer at `at` (with its length marker when
  // `keep_marker`, as element ids are written), or nothing past `head`.
  auto vint = [&](bool keep_marker) -> std::optional<uint64_t> {
    if (at >= head.size()) return std::nullopt;
    const auto first = static_cast<unsigned char>(head[at]);
    std::size_t length = 1;
    while (length <= 8 && (first & (0x80u >> (length - 1))) == 0) ++length;
    if (length > 8 || length > head.size() - at) return std::nullopt;
    uint64_t value = keep_marker ? first : first & (0xffu >> length);
    for (std::size_t i = 1; i < length; ++i) value = value << 8 | static_cast<unsigned char>(head[at + i]);
    at += length;
    return value;
  };
  if (vint(true) != 0x1a45dfa3u) return {};
  const auto header_size = vint(false);
  if (!header_size) return {};
  const std::size_t end = at + static_cast<std::size_t>(std::min<uint64_t>(*header_size, head.size() - at));
  while (at < end) {
    const auto id = vint(true), size = vint(false);
    if (!id || !size || at > end || *size > end - at) return {};
    if (*id == 0x4282) {
      std::string doctype(head.substr(at, static_cast<std::size_t>(*size)));
      doctype.erase(std::find(doctype.begin(), doctype.end(), '\0'), doctype.end()); // EBML strings may be zero-padded
      return doctype;
    }
    at += static_cast<std::size_t>(*size);
  }
  return {};
}

// The first of a demuxer's names: "mov" of "mov,mp4,m4a,3gp,3g2,mj2".
std::string_view demuxer_first_name(const AVInputFormat& format) {
  const std::string_view names = format.name;
  return names.substr(0, names.find(','));
}

// "mp4", "mov", "webm", "matroska", or the first of the demuxer's names.
std::string container_name(const AVFormatContext& demuxer, const probe_input& in) {
  const std::string_view name = demuxer_first_name(*demuxer.iformat);
  if (name == "mov") {
    // QuickTime's own files carry the brand "qt  " or no ftyp box at all.
    const AVDictionaryEntry* brand = av_dict_get(demuxer.metadata, "major_brand", nullptr, 0);
    return brand != nullptr && std::strcmp(brand->value, "qt  ") != 0 ? "mp4" : "mov";
  }
  if (name == "matroska") {
    char head[probe_ebml_head_bytes];
    const int64_t n = probe_read_at(in, 0, reinterpret_cast<uint8_t*>(head), probe_ebml_head_bytes);
    return ebml_doctype(std::string_view(head, n > 0 ? static_cast<std::size_t>(n) : 0)) == "webm" ? "webm"
                                                                                                    : "matroska";
  }
  return std::string(name);
}

std::optional<video_facts> read_video_facts(probe_input& in, std::string& error) {
  if (in.size == 0) {
    error = "the file is empty";
    return std::nullopt;
  }
  if (!load_libav(error)) return std::nullopt;
  try {
    auto* buffer = static_cast<unsigned char*>(av_malloc(probe_io_buffer_size));
    std::unique_ptr<AVIOContext, probe_io_deleter> io(
      buffer == nullptr ? nullptr
                        : avio_alloc_context(buffer, probe_io_buffer_size, 0, &in, probe_read, nullptr, probe_seek));
    if (!io) {
      av_free(buffer);
      error = "out of memory";
      return std::nullopt;
    }
    // Declared after `io`, so it is closed before the I/O it reads through goes.
    std::unique_ptr<AVFormatContext, probe_demuxer_deleter> demuxer(avformat_alloc_context());
    av_packet_ptr packet(av_packet_alloc());
    if (!demuxer || !packet) {
      error = "out of memory";
      return std::nullopt;
    }
    const AVInputFormat* format = nullptr;
    int rc = av_probe_input_buffer2(io.get(), &format, "", nullptr, 0, probe_recognise_bytes);
    if (rc < 0) {
      error = av_error_text("no container recognised", rc);
      return std::nullopt;
    }
    const auto* known = std::find(std::begin(probe_demuxers), std::end(probe_demuxers), demuxer_first_name(*format));
    if (known == std::end(probe_demuxers)) {
      error = "libavformat reads it as " + std::string(format->name) + ", not as a video container";
      return std::nullopt;
    }
    demuxer->pb = io.get();
    demuxer->flags |= AVFMT_FLAG_CUSTOM_IO; // closing the demuxer leaves `io` to us
    demuxer->max_streams = probe_max_streams;
    demuxer->io_open = probe_refuse_open;
    AVFormatContext* opened = demuxer.release();
    rc = avformat_open_input(&opened, nullptr, format, nullptr);
    demuxer.reset(opened); // null when the open failed: libavformat freed the context
    if (rc < 0) {
      error = av_error_text("reading the " + std::string(demuxer_first_name(*format)) + " header", rc);
      return std::nullopt;
    }

    AVStream* video = nullptr;
    for (unsigned i = 0; i < demuxer->nb_streams; ++i) {
      AVStream* s = demuxer->streams[i];
      // A cover picture is a video stream of one frame, not the video.
      const bool moving =
        s->codecpar->codec_type == AVMEDIA_TYPE_VIDEO && (s->disposition & AV_DISPOSITION_ATTACHED_PIC) == 0;
      if (moving && video == nullptr) video = s;
      else s->discard = AVDISCARD_ALL; // the demuxer skips their packets unread
    }
    if (video == nullptr) {
      error = "the file has no video stream";
      return std::nullopt;
    }

    // Every packet read, of any stream, counts toward the cap: a demuxer that
    // ignores `discard` must not make the loop endless either.
    int packets_read = 0, frames = 0;
    const double tick = av_q2d(video->time_base);
    double first = 0, end = 0; // seconds, of the video packets' presentation span
    bool spanned = false;
    while ((rc = av_read_frame(demuxer.get(), packet.get())) >= 0) {
      const bool ours = packet->stream_index == video->index;
      const bool damaged = (packet->flags & AV_PKT_FLAG_CORRUPT) != 0;
      const int64_t pts = packet->pts != AV_NOPTS_VALUE ? packet->pts : packet->dts;
      const double start = static_cast<double>(pts) * tick, stop = start + static_cast<double>(packet->duration) * tick;
      av_packet_unref(packet.get());
      if (++packets_read > probe_max_packets) {
        error = "the file holds more than " + std::to_string(probe_max_packets) + " packets";
        return std::nullopt;
      }
      if (!ours) continue;
      if (damaged) {
        error = "frame " + std::to_string(frames + 1) + " is cut short or damaged";
        return std::nullopt;
      }
      if (pts != AV_NOPTS_VALUE) {
        first = spanned ? std::min(first, start) : start;
        end = spanned ? std::max(end, stop) : stop;
        spanned = true;
      }
      ++frames;
    }
    if (rc != AVERROR_EOF) {
      error = av_error_text("reading frame " + std::to_string(frames + 1), rc);
      return std::nullopt;
    }
    // Below the cap here, so a hostile header's count larger than an int fails this check.
    if (video->nb_frames > frames) {
      error = "the file is cut short: its header lists " + std::to_string(video->nb_frames) + " frames, " +
              std::to_string(frames) + " are there";
      return std::nullopt;
    }
    if (frames == 0) {
      error = "the video stream has no frames";
      return std::nullopt;
    }

    video_facts facts;
    facts.container = container_name(*demuxer, in);
    facts.content_type = facts.container == "mp4" ? "video/mp4" : facts.container == "webm" ? "video/webm" : "";
    facts.codec = avcodec_get_name(video->codecpar->codec_id);
    facts.width = video->codecpar->width;
    facts.height = video->codecpar->height;
    facts.frames = video->nb_frames > 0 ? static_cast<int>(video->nb_frames) : frames;
    // Matroska keeps no duration per track: there the packets' span is the stream's.
    facts.seconds = video->duration != AV_NOPTS_VALUE && video->duration > 0
                      ? static_cast<double>(video->duration) * tick
                      : std::max(0.0, end - first);
    return facts;
  } catch (const std::exception& e) {
    error = std::string("probing the video failed: ") + e.what();
    return std::nullopt;
  }
}

// A duration for a sentence: "2", "1.5", "0.0417".
std::string duration_text(double s) {
  std::ostringstream out;
  out.precision(3);
  out << s;
  return out.str();
}

} // namespace

std::optional<video_facts> probe_video_bytes(std::string_view bytes, std::string& error) {
  probe_input in;
  in.bytes = bytes;
  in.size = static_cast<int64_t>(bytes.size());
  return read_video_facts(in, error);
}

std::optional<video_facts> probe_video_file(const std::string& path, std::string& error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot open " + path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  const probe_descriptor closes{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = path + " is not a regular file";
    return std::nullopt;
  }
  probe_input in;
  in.fd = fd;
  in.size = static_cast<int64_t>(st.st_size);
  return read_video_facts(in, error);
}

std::string video_mismatch(const video_facts& facts, int width, int height, int frames, double seconds,
                           int frame_tolerance, double duration_tolerance) {
  if (facts.container != "mp4" && facts.container != "webm")
    return "the engine's video's container is " + facts.container + ", not MP4 or WebM";
  std::string error;
  if (!load_libav(error)) return error;
  const AVCodecDescriptor* codec = avcodec_descriptor_get_by_name(facts.codec.c_str());
  if (codec == nullptr || codec->type != AVMEDIA_TYPE_VIDEO)
    return "the engine's video holds " + facts.codec + ", not a video codec";
  if (facts.width != width || facts.height != height)
    return "the engine's video is " + std::to_string(facts.width) + "x" + std::to_string(facts.height) + ", not " +
           std::to_string(width) + "x" + std::to_string(height);
  if (std::llabs(static_cast<long long>(facts.frames) - frames) > frame_tolerance)
    return "the engine's video has " + std::to_string(facts.frames) + " frames, not " + std::to_string(frames) +
           " (±" + std::to_string(frame_tolerance) + ")";
  // The slack absorbs rounding: 2.1 s read from a 1/1000 time base against 2 s ± 0.1 must pass.
  if (!(std::abs(facts.seconds - seconds) <= duration_tolerance + 1e-9))
    return "the engine's video lasts " + duration_text(facts.seconds) + " s, not " + duration_text(seconds) + " s (±" +
           duration_text(duration_tolerance) + " s)";
  return {};
}

} // namespace svc::providers
