#include "providers/mp4_encoder.hpp"

#include <cstdint>
#include <new>
#include <vector>

extern "C" {
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
}

#include "providers/libav_handles.hpp"

namespace svc::providers {

namespace {

// Where libavformat is in the MP4 file. The muxer seeks back to patch box
// sizes, and for `+faststart` reads the file again through a second cursor
// while it shifts the media data forward to make room for the index.
struct file_cursor {
  core::positional_file* file = nullptr;
  int64_t pos = 0;
  std::string error; ///< why the file refused a write; libav only hears EIO
};

// Callbacks run inside libavformat's C code: no exception may leave them.
int write_to_cursor(void* opaque, uint8_t* buf, int size) {
  auto& c = *static_cast<file_cursor*>(opaque);
  try {
    if (!c.file->write_at(static_cast<uint64_t>(c.pos), reinterpret_cast<const char*>(buf),
                          static_cast<std::size_t>(size), c.error))
      return AVERROR(EIO);
    c.pos += size;
    return size;
  } catch (const std::bad_alloc&) {
    return AVERROR(ENOMEM);
  }
}

int read_bytes(void* opaque, uint8_t* buf, int size) {
  auto& c = *static_cast<file_cursor*>(opaque);
  const auto n = c.file->read_at(static_cast<uint64_t>(c.pos), reinterpret_cast<char*>(buf), static_cast<std::size_t>(size));
  if (n < 0) return AVERROR(EIO);
  if (n == 0) return AVERROR_EOF;
  c.pos += n;
  return static_cast<int>(n);
}

// New position after a seek, or a negative AVERROR; AVSEEK_SIZE asks for the size.
int64_t seek_cursor(void* opaque, int64_t offset, int whence) {
  auto& c = *static_cast<file_cursor*>(opaque);
  const auto size = static_cast<int64_t>(c.file->size());
  whence &= ~AVSEEK_FORCE;
  if (whence == AVSEEK_SIZE) return size;
  const int64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? c.pos : whence == SEEK_END ? size : -1;
  if (base < 0 || base + offset < 0) return AVERROR(EINVAL);
  return c.pos = base + offset;
}

constexpr int io_buffer_size = 64 * 1024;

// An AVIOContext over `cursor` with its own buffer, or null.
AVIOContext* make_io(file_cursor& cursor, bool writable) {
  auto* buffer = static_cast<unsigned char*>(av_malloc(io_buffer_size));
  if (buffer == nullptr) return nullptr;
  AVIOContext* io = avio_alloc_context(buffer, io_buffer_size, writable ? 1 : 0, &cursor, writable ? nullptr : read_bytes,
                                       writable ? write_to_cursor : nullptr, seek_cursor);
  if (io == nullptr) av_free(buffer);
  return io;
}

void free_io(AVIOContext* io) {
  if (io == nullptr) return;
  av_freep(&io->buffer);
  avio_context_free(&io);
}

struct io_deleter {
  void operator()(AVIOContext* io) const { free_io(io); }
};

struct format_deleter {
  void operator()(AVFormatContext* f) const { avformat_free_context(f); }
};

// Options handed to libav, which may replace the dictionary with the ones it did not use.
struct options_dict {
  AVDictionary* d = nullptr;
  ~options_dict() { av_dict_free(&d); }
};

inline uint8_t rounded_byte(float v) { return static_cast<uint8_t>(static_cast<int>(v + 0.5f)); }

// BT.709 limited range: what players assume for HD H.264 and what the stream
// is tagged with. Done here rather than by libswscale so every CPU computes
// the same bytes (swscale's SIMD paths round differently from its C code).
// Chroma is taken from the mean of each 2x2 block; sizes are even. Converts
// rows y and y + 1 of `f`.
void to_yuv420(const rgb* top, const rgb* bottom, int width, int y, AVFrame& f) {
  uint8_t* y0 = f.data[0] + static_cast<std::ptrdiff_t>(y) * f.linesize[0];
  uint8_t* y1 = y0 + f.linesize[0];
  uint8_t* u = f.data[1] + static_cast<std::ptrdiff_t>(y / 2) * f.linesize[1];
  uint8_t* v = f.data[2] + static_cast<std::ptrdiff_t>(y / 2) * f.linesize[2];
  for (int x = 0; x < width; x += 2) {
    const rgb a = clamp01(top[x]), b = clamp01(top[x + 1]), c = clamp01(bottom[x]), d = clamp01(bottom[x + 1]);
    y0[x] = rounded_byte(16.f + 219.f * luma(a));
    y0[x + 1] = rounded_byte(16.f + 219.f * luma(b));
    y1[x] = rounded_byte(16.f + 219.f * luma(c));
    y1[x + 1] = rounded_byte(16.f + 219.f * luma(d));
    const rgb m = (a + b + c + d) * 0.25f;
    const float l = luma(m);
    u[x / 2] = rounded_byte(128.f + 224.f * (m.b - l) * (1.f / 1.8556f));
    v[x / 2] = rounded_byte(128.f + 224.f * (m.r - l) * (1.f / 1.5748f));
  }
}

} // namespace

// Declared in destruction order's reverse: the muxer goes before the I/O
// contexts it writes through, and those before the cursors they point at.
struct mp4_encoder::state {
  file_cursor writer, reader;
  std::unique_ptr<AVIOContext, io_deleter> out_io;
  std::unique_ptr<AVFormatContext, format_deleter> muxer;
  av_codec_context_ptr codec;
  AVStream* stream = nullptr; // owned by muxer
  av_frame_ptr frame;
  std::vector<rgb> rows; // two rows of floats: the frame is converted to YUV a row pair at a time
  av_packet_ptr packet;
  int64_t next_pts = 0;

  // Serves the muxer's faststart pass, which reopens its output for reading.
  static int open_again(AVFormatContext* s, AVIOContext** pb, const char*, int flags, AVDictionary**) {
    auto& st = *static_cast<state*>(s->opaque);
    if ((flags & AVIO_FLAG_WRITE) != 0) return AVERROR(EPERM);
    st.reader = file_cursor{st.writer.file, 0, {}};
    *pb = make_io(st.reader, false);
    return *pb == nullptr ? AVERROR(ENOMEM) : 0;
  }

  static int close_again(AVFormatContext*, AVIOContext* pb) {
    free_io(pb);
    return 0;
  }

  // Why `what` failed with `rc`: the file's own words when it refused a write.
  std::string failure(const std::string& what, int rc) const {
    return writer.error.empty() ? av_error_text(what, rc) : "writing the MP4: " + writer.error;
  }

  // Moves every packet the encoder has ready into the muxer; AVERROR(EAGAIN)
  // and AVERROR_EOF mean "none left" and are not failures.
  int drain() {
    for (;;) {
      int rc = avcodec_receive_packet(codec.get(), packet.get());
      if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) return 0;
      if (rc < 0) return rc;
      // Every frame lasts 1/fps. libx264 leaves durations unset, and the
      // muxer would then give the last frame none: one frame short in players.
      packet->duration = 1;
      av_packet_rescale_ts(packet.get(), codec->time_base, stream->time_base);
      packet->stream_index = stream->index;
      rc = av_interleaved_write_frame(muxer.get(), packet.get());
      if (rc < 0) return rc;
    }
  }
};

std::string video_format_error(int width, int height, int fps) {
  if (width < min_video_side || height < min_video_side || width > max_video_side || height > max_video_side ||
      width % 2 != 0 || height % 2 != 0)
    return "video size " + std::to_string(width) + "x" + std::to_string(height) + " is not even within " +
           std::to_string(min_video_side) + ".." + std::to_string(max_video_side);
  if (fps < 1 || fps > 120) return "fps " + std::to_string(fps) + " is outside 1..120";
  return {};
}

mp4_encoder::mp4_encoder(mp4_options opts) : opts_(std::move(opts)) {}

mp4_encoder::~mp4_encoder() = default;

bool mp4_encoder::open(int width, int height, int fps, core::positional_file& out, std::string& error) {
  if (opened_) {
    error = "encoder already opened";
    return false;
  }
  opened_ = true;
  if (auto why = video_format_error(width, height, fps); !why.empty()) {
    error = std::move(why);
    return false;
  }
  if (!load_libav(error))
    return false;
  const AVCodec* x264 = avcodec_find_encoder_by_name("libx264");
  if (x264 == nullptr) {
    error = "libavcodec was built without libx264";
    return false;
  }
  auto st = std::make_unique<state>();
  AVFormatContext* muxer = nullptr;
  int rc = avformat_alloc_output_context2(&muxer, nullptr, "mp4", nullptr);
  if (rc < 0) {
    error = av_error_text("MP4 muxer", rc);
    return false;
  }
  st->muxer.reset(muxer);
  st->writer.file = &out;
  st->out_io.reset(make_io(st->writer, true));
  st->codec.reset(avcodec_alloc_context3(x264));
  st->frame.reset(av_frame_alloc());
  st->packet.reset(av_packet_alloc());
  st->stream = avformat_new_stream(muxer, nullptr);
  if (!st->out_io || !st->codec || !st->frame || !st->packet || st->stream == nullptr) {
    error = "out of memory opening the MP4 encoder";
    return false;
  }
  muxer->pb = st->out_io.get();
  muxer->flags |= AVFMT_FLAG_CUSTOM_IO | AVFMT_FLAG_BITEXACT; // no "Lavf..." tag: bytes independent of the libavformat version
  muxer->opaque = st.get();
  muxer->io_open = state::open_again;
  muxer->io_close2 = state::close_again;

  AVCodecContext& c = *st->codec;
  c.width = width;
  c.height = height;
  c.time_base = AVRational{1, fps};
  c.framerate = AVRational{fps, 1};
  c.pix_fmt = AV_PIX_FMT_YUV420P;
  c.gop_size = 2 * fps; // a keyframe every 2 s, so seeking in a player is quick
  // One thread: x264's output depends on its thread count, and "auto" would
  // follow the machine's cores. A render already owns one worker thread.
  c.thread_count = 1;
  c.color_range = AVCOL_RANGE_MPEG;
  c.colorspace = AVCOL_SPC_BT709;
  c.color_primaries = AVCOL_PRI_BT709;
  c.color_trc = AVCOL_TRC_BT709;
  if ((muxer->oformat->flags & AVFMT_GLOBALHEADER) != 0) c.flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  options_dict codec_opts;
  av_dict_set(&codec_opts.d, "preset", opts_.preset.c_str(), 0);
  av_dict_set_int(&codec_opts.d, "crf", opts_.crf, 0);
  // No macroblock tree: x264 reads memory it never wrote while it propagates
  // costs over the lookahead (widths that are not a multiple of 64), so its
  // bits would depend on what the process allocated before, and on the CPU's
  // code paths that shape the heap. Equal frames must give equal bytes.
  // Without a macroblock tree or VBV, x264's lookahead is only as long as its
  // B-frames, so `bframes` bounds the frames it holds in memory.
  av_dict_set(&codec_opts.d, "x264-params", ("mbtree=0:bframes=" + std::to_string(opts_.bframes)).c_str(), 0);
  rc = avcodec_open2(&c, x264, &codec_opts.d);
  if (rc < 0) {
    error = av_error_text("opening libx264 (preset " + opts_.preset + ", crf " + std::to_string(opts_.crf) +
                            ", bframes " + std::to_string(opts_.bframes) + ")", rc);
    return false;
  }
  rc = avcodec_parameters_from_context(st->stream->codecpar, &c);
  if (rc < 0) {
    error = av_error_text("stream parameters", rc);
    return false;
  }
  st->stream->time_base = c.time_base;
  st->frame->format = AV_PIX_FMT_YUV420P;
  st->frame->width = width;
  st->frame->height = height;
  rc = av_frame_get_buffer(st->frame.get(), 0);
  if (rc < 0) {
    error = av_error_text("frame buffer", rc);
    return false;
  }
  st->rows.resize(2 * static_cast<std::size_t>(width));
  options_dict mux_opts;
  av_dict_set(&mux_opts.d, "movflags", "+faststart", 0);
  rc = avformat_write_header(muxer, &mux_opts.d);
  if (rc < 0) {
    error = st->failure("MP4 header", rc);
    return false;
  }
  state_ = std::move(st);
  return true;
}

bool mp4_encoder::push(const row_painter& paint, std::string& error) {
  if (!state_) {
    error = "encoder is not open";
    return false;
  }
  state& st = *state_;
  // The encoder copies each frame into its own pictures, so this one buffer is never shared.
  int rc = av_frame_make_writable(st.frame.get());
  if (rc >= 0) {
    const int width = st.codec->width;
    rgb* top = st.rows.data();
    rgb* bottom = top + width;
    for (int y = 0; y < st.codec->height; y += 2) {
      paint(y, top);
      paint(y + 1, bottom);
      to_yuv420(top, bottom, width, y, *st.frame);
    }
    st.frame->pts = st.next_pts++;
    rc = avcodec_send_frame(st.codec.get(), st.frame.get());
  }
  if (rc >= 0) rc = st.drain();
  if (rc < 0) {
    error = st.failure("encoding frame " + std::to_string(st.next_pts), rc);
    state_.reset();
    return false;
  }
  return true;
}

bool mp4_encoder::finish(std::string& error) {
  if (!state_) {
    error = "encoder is not open";
    return false;
  }
  auto st = std::move(state_);
  if (st->next_pts == 0) {
    error = "a video needs at least one frame";
    return false;
  }
  int rc = avcodec_send_frame(st->codec.get(), nullptr);
  if (rc >= 0) rc = st->drain();
  if (rc >= 0) rc = av_write_trailer(st->muxer.get());
  if (rc >= 0) {
    avio_flush(st->out_io.get());
    rc = st->out_io->error;
  }
  if (rc < 0) {
    error = st->failure("finishing the MP4", rc);
    return false;
  }
  return true;
}

} // namespace svc::providers
