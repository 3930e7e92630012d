// A Range header against an output whose size comes from the input.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "http/byte_range.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size < 8)
    return 0;
  uint64_t length = 0;
  std::memcpy(&length, data, 8);
  const std::string_view header(reinterpret_cast<const char*>(data) + 8, size - 8);
  svc::http::parse_range(header, length);
  svc::http::parse_range(header, length % 4096);
  return 0;
}
