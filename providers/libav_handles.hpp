#pragma once
// Owning handles for the FFmpeg objects the MP4 encoder, the image decoder
// and the video probe share, so every early return frees what was
// allocated, and one place that turns libav's error codes into text. Call
// load_libav first.

#include <memory>
#include <string>

#include "providers/libav_loader.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>
#include <libswscale/swscale.h>
}

namespace svc::providers {

/// Frees a libav object through the function that also nulls its pointer.
struct av_deleter {
  /// av_frame_free.
  void operator()(AVFrame* f) const { av_frame_free(&f); }
  /// av_packet_free.
  void operator()(AVPacket* p) const { av_packet_free(&p); }
  /// avcodec_free_context.
  void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
  /// sws_freeContext.
  void operator()(SwsContext* s) const { sws_freeContext(s); }
};

/// An owned AVFrame.
using av_frame_ptr = std::unique_ptr<AVFrame, av_deleter>;
/// An owned AVPacket.
using av_packet_ptr = std::unique_ptr<AVPacket, av_deleter>;
/// An owned codec context.
using av_codec_context_ptr = std::unique_ptr<AVCodecContext, av_deleter>;
/// An owned scaler.
using sws_context_ptr = std::unique_ptr<SwsContext, av_deleter>;

/// `what` followed by libav's description of `code` (a negative AVERROR).
std::string av_error_text(const std::string& what, int code);

} // namespace svc::providers
