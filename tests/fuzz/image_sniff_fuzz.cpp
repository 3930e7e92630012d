// The first bytes of an upload: its type and size, never a read past them.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "schema/image_sniff.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  svc::schema::sniff_image(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
