// An init image decoded as a job decodes it: at its own size and cover-fitted,
// with limits small enough that each input stays fast.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "providers/image_decoder.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  svc::providers::decode_limits limits;
  limits.max_side = 1024;
  limits.max_pixels = 256 * 1024;
  svc::providers::image out;
  std::string error;
  svc::providers::decode_image(bytes, out, error, limits);
  svc::providers::decode_image_cover(bytes, 48, 32, out, error, limits);
  return 0;
}
