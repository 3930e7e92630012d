// An upload as POST /v1/files sees it: the Content-Type line (up to the first
// newline) names the boundary, the rest is the body, fed to the upload form in
// chunks whose sizes come from the input.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "http/multipart.hpp"
#include "http/upload_form.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  const auto nl = in.find('\n');
  if (nl == std::string_view::npos || nl + 1 >= in.size())
    return 0;
  std::string boundary;
  if (svc::http::read_form_type(in.substr(0, nl), boundary) != svc::http::form_type::form_data)
    return 0;
  std::string_view body = in.substr(nl + 1);
  const std::size_t chunk = 1 + static_cast<unsigned char>(body[0]) % 97;
  svc::http::upload_form form(boundary, body.size());
  while (!body.empty()) {
    const auto n = std::min(chunk, body.size());
    if (!form.feed(body.substr(0, n)))
      return 0;
    body.remove_prefix(n);
  }
  form.finish();
  return 0;
}
