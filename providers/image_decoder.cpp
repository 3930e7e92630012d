#include "providers/image_decoder.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <exception>
#include <vector>

extern "C" {
#include <libavutil/pixdesc.h>
}

#include "providers/libav_handles.hpp"

// All three formats go through libavcodec's decoders (png, mjpeg, webp) and
// libswscale rather than libpng plus two more libraries: FFmpeg is already
// linked for the MP4 encoder, one code path means one set of limits and one
// error handling to get right, and libswscale scales and converts (palette,
// 16-bit, grey, alpha, YUV) in the same pass as the cover fit.

namespace svc::providers {

namespace {

struct format {
  AVCodecID codec;
  const char* name;
};

// The format named by the file's magic bytes, not by anything the client said.
const format* sniff(std::string_view b) {
  static const format png{AV_CODEC_ID_PNG, "PNG"}, jpeg{AV_CODEC_ID_MJPEG, "JPEG"}, webp{AV_CODEC_ID_WEBP, "WebP"};
  if (b.size() >= 8 && b.substr(0, 8) == std::string_view("\x89PNG\r\n\x1a\n", 8)) return &png;
  if (b.size() >= 3 && b.substr(0, 3) == "\xff\xd8\xff") return &jpeg;
  if (b.size() >= 12 && b.substr(0, 4) == "RIFF" && b.substr(8, 4) == "WEBP") return &webp;
  return nullptr;
}

// Rides on the codec context so the allocation hook can see the limits and
// report what it refused.
struct size_guard {
  decode_limits limits;
  int refused_width = 0;
  int refused_height = 0;
};

// libavcodec itself refuses more than max_pixels (set on the context) before
// sizing its buffers; this adds the per-side bound right before the picture
// buffer is allocated, for every decoder alike.
int bounded_get_buffer(AVCodecContext* c, AVFrame* frame, int flags) {
  auto& guard = *static_cast<size_guard*>(c->opaque);
  if (c->width > guard.limits.max_side || c->height > guard.limits.max_side) {
    guard.refused_width = c->width;
    guard.refused_height = c->height;
    return AVERROR(ERANGE);
  }
  return avcodec_default_get_buffer2(c, frame, flags);
}

std::string limits_text(const decode_limits& l) {
  return "at most " + std::to_string(l.max_side) + " pixels a side and " + std::to_string(l.max_pixels) +
         " pixels in all are accepted";
}

// Decodes the one picture of `bytes` into `frame`.
bool decode_frame(std::string_view bytes, const format& fmt, const decode_limits& limits, AVFrame& frame,
                  std::string& error) {
  if (bytes.size() > static_cast<std::size_t>(INT_MAX - AV_INPUT_BUFFER_PADDING_SIZE)) {
    error = "file too large";
    return false;
  }
  const AVCodec* codec = avcodec_find_decoder(fmt.codec);
  av_codec_context_ptr ctx(codec != nullptr ? avcodec_alloc_context3(codec) : nullptr);
  av_packet_ptr packet(av_packet_alloc());
  if (!ctx || !packet) {
    error = std::string("no ") + fmt.name + " decoder";
    return false;
  }
  size_guard guard{limits};
  ctx->opaque = &guard;
  ctx->get_buffer2 = bounded_get_buffer;
  ctx->max_pixels = limits.max_pixels;
  ctx->thread_count = 1;
  ctx->flags |= AV_CODEC_FLAG_BITEXACT; // equal uploads give equal pixels on every CPU
  // Refuse damaged files instead of concealing the damage: a half-grey init
  // image would silently spoil the render built on it.
  ctx->err_recognition = AV_EF_EXPLODE | AV_EF_CRCCHECK;
  int rc = avcodec_open2(ctx.get(), codec, nullptr);
  if (rc >= 0) rc = av_new_packet(packet.get(), static_cast<int>(bytes.size()));
  if (rc < 0) {
    error = av_error_text(std::string("opening the ") + fmt.name + " decoder", rc);
    return false;
  }
  std::memcpy(packet->data, bytes.data(), bytes.size());
  rc = avcodec_send_packet(ctx.get(), packet.get());
  if (rc >= 0) rc = avcodec_send_packet(ctx.get(), nullptr); // no more data: hand out the picture
  if (rc >= 0 || rc == AVERROR_EOF) rc = avcodec_receive_frame(ctx.get(), &frame);
  if (guard.refused_width > 0) {
    error = std::string(fmt.name) + " image is " + std::to_string(guard.refused_width) + "x" +
            std::to_string(guard.refused_height) + "; " + limits_text(limits);
    return false;
  }
  if (rc < 0) {
    error = av_error_text(std::string("corrupt, truncated or oversized ") + fmt.name + " file (" + limits_text(limits) + ")", rc);
    return false;
  }
  if (frame.width <= 0 || frame.height <= 0 || frame.width > limits.max_side || frame.height > limits.max_side) {
    error = std::string(fmt.name) + " image has no usable size";
    return false;
  }
  return true;
}

// The largest centred part of a sw x sh picture with the aspect ratio of tw x th.
void cover_crop(AVFrame& frame, int tw, int th) {
  const int64_t sw = frame.width, sh = frame.height;
  int64_t cw = sw, ch = sh;
  if (sw * th > tw * sh) cw = std::clamp<int64_t>((sh * tw + th / 2) / th, 1, sw);
  else ch = std::clamp<int64_t>((sw * th + tw / 2) / tw, 1, sh);
  frame.crop_left = static_cast<size_t>((sw - cw) / 2);
  frame.crop_right = static_cast<size_t>(sw - cw) - frame.crop_left;
  frame.crop_top = static_cast<size_t>((sh - ch) / 2);
  frame.crop_bottom = static_cast<size_t>(sh - ch) - frame.crop_top;
}

// Converts (and scales) the frame to 8-bit RGBA, then composites over white
// into the float canvas.
bool to_canvas(AVFrame& frame, int tw, int th, image& out, std::string& error) {
  const auto src_format = static_cast<AVPixelFormat>(frame.format);
  sws_context_ptr sws(sws_getContext(frame.width, frame.height, src_format, tw, th, AV_PIX_FMT_RGBA,
                                     SWS_BICUBIC | SWS_ACCURATE_RND | SWS_BITEXACT, nullptr, nullptr, nullptr));
  if (!sws) {
    const char* name = av_get_pix_fmt_name(src_format);
    error = std::string("unsupported pixel format ") + (name != nullptr ? name : "?");
    return false;
  }
  // Full-range YUV (JPEG, some WebP) must not be stretched as if it were video range.
  int *inv_table = nullptr, *table = nullptr;
  int src_range = 0, dst_range = 0, brightness = 0, contrast = 0, saturation = 0;
  if (frame.color_range == AVCOL_RANGE_JPEG &&
      sws_getColorspaceDetails(sws.get(), &inv_table, &src_range, &table, &dst_range, &brightness, &contrast,
                               &saturation) >= 0)
    sws_setColorspaceDetails(sws.get(), inv_table, 1, table, dst_range, brightness, contrast, saturation);
  std::vector<uint8_t> rgba(static_cast<std::size_t>(tw) * static_cast<std::size_t>(th) * 4);
  uint8_t* dst[4] = {rgba.data(), nullptr, nullptr, nullptr};
  const int dst_stride[4] = {tw * 4, 0, 0, 0};
  if (sws_scale(sws.get(), frame.data, frame.linesize, 0, frame.height, dst, dst_stride) != th) {
    error = "pixel conversion failed";
    return false;
  }
  out = image(tw, th);
  const uint8_t* p = rgba.data();
  for (auto& px : out.px) {
    const float a = static_cast<float>(p[3]) / 255.f, white = 1.f - a;
    px = {static_cast<float>(p[0]) / 255.f * a + white, static_cast<float>(p[1]) / 255.f * a + white,
          static_cast<float>(p[2]) / 255.f * a + white};
    p += 4;
  }
  return true;
}

// Both entry points: `tw` x `th` of 0 means the file's own size.
bool decode(std::string_view bytes, int tw, int th, image& out, std::string& error, const decode_limits& limits) {
  const format* fmt = sniff(bytes);
  if (fmt == nullptr) {
    error = "not a PNG, JPEG or WebP file";
    return false;
  }
  if (!load_libav(error))
    return false;
  try {
    av_frame_ptr frame(av_frame_alloc());
    if (!frame) {
      error = "out of memory";
      return false;
    }
    if (!decode_frame(bytes, *fmt, limits, *frame, error)) return false;
    if (tw == 0) {
      tw = frame->width;
      th = frame->height;
    } else {
      cover_crop(*frame, tw, th);
      const int rc = av_frame_apply_cropping(frame.get(), AV_FRAME_CROP_UNALIGNED);
      if (rc < 0) {
        error = av_error_text("cropping", rc);
        return false;
      }
    }
    return to_canvas(*frame, tw, th, out, error);
  } catch (const std::exception& e) {
    error = std::string("decoding failed: ") + e.what();
    return false;
  }
}

} // namespace

bool decode_image(std::string_view bytes, image& out, std::string& error, const decode_limits& limits) {
  return decode(bytes, 0, 0, out, error, limits);
}

bool decode_image_cover(std::string_view bytes, int width, int height, image& out, std::string& error,
                        const decode_limits& limits) {
  if (width < 1 || height < 1 || width > limits.max_side || height > limits.max_side ||
      static_cast<int64_t>(width) * height > limits.max_pixels) {
    error = "output size " + std::to_string(width) + "x" + std::to_string(height) + " is out of range; " +
            limits_text(limits);
    return false;
  }
  return decode(bytes, width, height, out, error, limits);
}

} // namespace svc::providers
