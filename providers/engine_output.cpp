#include "providers/engine_output.hpp"

#include "core/crypto.hpp"

namespace svc::providers {

std::size_t output_limit(const render_request& req) {
  std::size_t frame = static_cast<std::size_t>(req.width) * static_cast<std::size_t>(req.height) * 4;
  std::size_t frames = req.is_video() ? static_cast<std::size_t>(req.duration_seconds) * req.fps + 1 : 1;
  return frame * frames + (1u << 20);
}

std::optional<data_uri> decode_data_uri(std::string_view uri, std::size_t limit, std::string& error) {
  constexpr std::string_view scheme = "data:";
  auto comma = uri.find(',');
  if (uri.substr(0, scheme.size()) != scheme || comma == std::string_view::npos) {
    error = "not a data: URI";
    return std::nullopt;
  }
  auto header = uri.substr(scheme.size(), comma - scheme.size());
  constexpr std::string_view base64 = ";base64";
  if (header.size() < base64.size() || header.substr(header.size() - base64.size()) != base64) {
    error = "a data: URI that is not base64";
    return std::nullopt;
  }
  auto payload = uri.substr(comma + 1);
  // Checked before decoding: base64 is 4 characters per 3 bytes.
  if (payload.size() / 4 * 3 > limit + 3) {
    error = "a data: URI of over " + std::to_string(limit) + " bytes";
    return std::nullopt;
  }
  auto bytes = core::base64_decode(payload);
  if (!bytes) {
    error = "a data: URI with malformed base64";
    return std::nullopt;
  }
  if (bytes->size() > limit) {
    error = "a data: URI of over " + std::to_string(limit) + " bytes";
    return std::nullopt;
  }
  data_uri out;
  out.media_type = std::string{header.substr(0, header.find(';'))};
  out.bytes = std::move(*bytes);
  return out;
}

} // namespace svc::providers
