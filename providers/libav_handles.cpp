#include "providers/libav_handles.hpp"

extern "C" {
#include <libavutil/error.h>
}

namespace svc::providers {

std::string av_error_text(const std::string& what, int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return what + ": " + text;
}

} // namespace svc::providers
