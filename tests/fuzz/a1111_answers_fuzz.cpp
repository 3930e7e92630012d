// What an AUTOMATIC1111-compatible server answers: a render (images in base64
// JSON, checked against the request) and a progress poll.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "providers/remote/a1111_protocol.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size == 0)
    return 0;
  const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);
  svc::providers::render_request req;
  req.width = 8 << (data[0] & 3);
  req.height = 8 << ((data[0] >> 2) & 3);
  req.num_outputs = 1 + ((data[0] >> 4) & 3);
  svc::providers::a1111_parse_images(body, req);
  svc::providers::a1111_parse_progress(body);
  svc::providers::a1111_error_snippet(body);
  return 0;
}
