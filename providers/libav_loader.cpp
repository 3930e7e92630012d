#include "providers/libav_loader.hpp"

#include <mutex>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

#include "core/lazy_library.hpp"

namespace svc::providers {
namespace {

// The major versions whose headers we compiled against, loaded in
// dependency order.
core::lazy_library avutil{"libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR)};
core::lazy_library avcodec{"libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR)};
core::lazy_library avformat{"libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR)};
core::lazy_library swscale{"libswscale.so." AV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR)};

} // namespace

bool load_libav(std::string& error) {
  std::string why;
  if (!avutil.load(why) || !avcodec.load(why) || !avformat.load(why) || !swscale.load(why)) {
    error = "loading FFmpeg: " + why;
    return false;
  }
  // Every failure reaches our callers as a value with av_error_text; libav's
  // chatter (x264's statistics per video, a decoder's complaint per bad
  // upload, some of it at "fatal" level) would otherwise go straight to the
  // server's stderr.
  static std::once_flag quiet;
  std::call_once(quiet, [] { av_log_set_level(AV_LOG_QUIET); });
  return true;
}

} // namespace svc::providers

// The libav functions svc_providers calls. One added elsewhere fails to link
// until it is listed here.
#define SVC_LIBAV_FORWARD(lib, ret, name, params, args) \
  SVC_LAZY_FORWARD(svc::providers::lib, ret, name, params, args)

SVC_LIBAV_FORWARD(avutil, void, av_log_set_level, (int level), (level))
SVC_LIBAV_FORWARD(avutil, int, av_strerror, (int code, char* buf, size_t size), (code, buf, size))
SVC_LIBAV_FORWARD(avutil, void*, av_malloc, (size_t size), (size))
SVC_LIBAV_FORWARD(avutil, void, av_free, (void* p), (p))
SVC_LIBAV_FORWARD(avutil, void, av_freep, (void* p), (p))
SVC_LIBAV_FORWARD(avutil, int, av_dict_set, (AVDictionary** d, const char* k, const char* v, int flags), (d, k, v, flags))
SVC_LIBAV_FORWARD(avutil, int, av_dict_set_int, (AVDictionary** d, const char* k, int64_t v, int flags), (d, k, v, flags))
SVC_LIBAV_FORWARD(avutil, void, av_dict_free, (AVDictionary** d), (d))
SVC_LIBAV_FORWARD(avutil, AVDictionaryEntry*, av_dict_get,
                  (const AVDictionary* d, const char* k, const AVDictionaryEntry* prev, int flags), (d, k, prev, flags))
SVC_LIBAV_FORWARD(avutil, AVFrame*, av_frame_alloc, (void), ())
SVC_LIBAV_FORWARD(avutil, void, av_frame_free, (AVFrame** f), (f))
SVC_LIBAV_FORWARD(avutil, int, av_frame_get_buffer, (AVFrame* f, int align), (f, align))
SVC_LIBAV_FORWARD(avutil, int, av_frame_make_writable, (AVFrame* f), (f))
SVC_LIBAV_FORWARD(avutil, int, av_frame_apply_cropping, (AVFrame* f, int flags), (f, flags))
SVC_LIBAV_FORWARD(avutil, const char*, av_get_pix_fmt_name, (enum AVPixelFormat f), (f))

SVC_LIBAV_FORWARD(avcodec, const AVCodec*, avcodec_find_decoder, (enum AVCodecID id), (id))
SVC_LIBAV_FORWARD(avcodec, const AVCodec*, avcodec_find_encoder_by_name, (const char* name), (name))
SVC_LIBAV_FORWARD(avcodec, AVCodecContext*, avcodec_alloc_context3, (const AVCodec* c), (c))
SVC_LIBAV_FORWARD(avcodec, void, avcodec_free_context, (AVCodecContext** c), (c))
SVC_LIBAV_FORWARD(avcodec, int, avcodec_open2, (AVCodecContext* c, const AVCodec* codec, AVDictionary** o), (c, codec, o))
SVC_LIBAV_FORWARD(avcodec, int, avcodec_default_get_buffer2, (AVCodecContext* c, AVFrame* f, int flags), (c, f, flags))
SVC_LIBAV_FORWARD(avcodec, int, avcodec_parameters_from_context, (AVCodecParameters* p, const AVCodecContext* c), (p, c))
SVC_LIBAV_FORWARD(avcodec, int, avcodec_send_frame, (AVCodecContext* c, const AVFrame* f), (c, f))
SVC_LIBAV_FORWARD(avcodec, int, avcodec_receive_frame, (AVCodecContext* c, AVFrame* f), (c, f))
SVC_LIBAV_FORWARD(avcodec, int, avcodec_send_packet, (AVCodecContext* c, const AVPacket* p), (c, p))
SVC_LIBAV_FORWARD(avcodec, int, avcodec_receive_packet, (AVCodecContext* c, AVPacket* p), (c, p))
SVC_LIBAV_FORWARD(avcodec, AVPacket*, av_packet_alloc, (void), ())
SVC_LIBAV_FORWARD(avcodec, void, av_packet_free, (AVPacket** p), (p))
SVC_LIBAV_FORWARD(avcodec, void, av_packet_unref, (AVPacket* p), (p))
SVC_LIBAV_FORWARD(avcodec, int, av_new_packet, (AVPacket* p, int size), (p, size))
SVC_LIBAV_FORWARD(avcodec, void, av_packet_rescale_ts, (AVPacket* p, AVRational from, AVRational to), (p, from, to))
SVC_LIBAV_FORWARD(avcodec, const char*, avcodec_get_name, (enum AVCodecID id), (id))
SVC_LIBAV_FORWARD(avcodec, const AVCodecDescriptor*, avcodec_descriptor_get_by_name, (const char* name), (name))

SVC_LIBAV_FORWARD(avformat, int, avformat_alloc_output_context2,
                  (AVFormatContext** s, const AVOutputFormat* o, const char* format, const char* file),
                  (s, o, format, file))
SVC_LIBAV_FORWARD(avformat, void, avformat_free_context, (AVFormatContext* s), (s))
SVC_LIBAV_FORWARD(avformat, AVStream*, avformat_new_stream, (AVFormatContext* s, const AVCodec* c), (s, c))
SVC_LIBAV_FORWARD(avformat, int, avformat_write_header, (AVFormatContext* s, AVDictionary** o), (s, o))
SVC_LIBAV_FORWARD(avformat, int, av_interleaved_write_frame, (AVFormatContext* s, AVPacket* p), (s, p))
SVC_LIBAV_FORWARD(avformat, int, av_write_trailer, (AVFormatContext* s), (s))
SVC_LIBAV_FORWARD(avformat, AVIOContext*, avio_alloc_context,
                  (unsigned char* buffer, int size, int writable, void* opaque, int (*read)(void*, uint8_t*, int),
                   int (*write)(void*, uint8_t*, int), int64_t (*seek)(void*, int64_t, int)),
                  (buffer, size, writable, opaque, read, write, seek))
SVC_LIBAV_FORWARD(avformat, void, avio_context_free, (AVIOContext** s), (s))
SVC_LIBAV_FORWARD(avformat, void, avio_flush, (AVIOContext* s), (s))
SVC_LIBAV_FORWARD(avformat, AVFormatContext*, avformat_alloc_context, (void), ())
SVC_LIBAV_FORWARD(avformat, int, av_probe_input_buffer2,
                  (AVIOContext* pb, const AVInputFormat** fmt, const char* url, void* logctx, unsigned int offset,
                   unsigned int max_probe_size),
                  (pb, fmt, url, logctx, offset, max_probe_size))
SVC_LIBAV_FORWARD(avformat, int, avformat_open_input,
                  (AVFormatContext** s, const char* url, const AVInputFormat* fmt, AVDictionary** options),
                  (s, url, fmt, options))
SVC_LIBAV_FORWARD(avformat, void, avformat_close_input, (AVFormatContext** s), (s))
SVC_LIBAV_FORWARD(avformat, int, av_read_frame, (AVFormatContext* s, AVPacket* p), (s, p))

SVC_LIBAV_FORWARD(swscale, SwsContext*, sws_getContext,
                  (int sw, int sh, enum AVPixelFormat sf, int dw, int dh, enum AVPixelFormat df, int flags,
                   SwsFilter* src_filter, SwsFilter* dst_filter, const double* param),
                  (sw, sh, sf, dw, dh, df, flags, src_filter, dst_filter, param))
SVC_LIBAV_FORWARD(swscale, void, sws_freeContext, (SwsContext* c), (c))
SVC_LIBAV_FORWARD(swscale, int, sws_scale,
                  (SwsContext* c, const uint8_t* const src[], const int src_stride[], int y, int h, uint8_t* const dst[],
                   const int dst_stride[]),
                  (c, src, src_stride, y, h, dst, dst_stride))
SVC_LIBAV_FORWARD(swscale, int, sws_getColorspaceDetails,
                  (SwsContext* c, int** inv_table, int* src_range, int** table, int* dst_range, int* brightness,
                   int* contrast, int* saturation),
                  (c, inv_table, src_range, table, dst_range, brightness, contrast, saturation))
SVC_LIBAV_FORWARD(swscale, int, sws_setColorspaceDetails,
                  (SwsContext* c, const int inv_table[4], int src_range, const int table[4], int dst_range,
                   int brightness, int contrast, int saturation),
                  (c, inv_table, src_range, table, dst_range, brightness, contrast, saturation))
