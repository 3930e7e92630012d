#pragma once
// The `Range` request header (RFC 9110 section 14) of output downloads: video
// players seek with single byte ranges. Pure, so every shape is unit tested.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace svc::http {

/// The bytes `first..last` (inclusive) of a representation.
struct byte_range {
  uint64_t first = 0;
  uint64_t last = 0;
  /// Bytes in the range.
  uint64_t length() const { return last - first + 1; }
};

/// What a `Range` header asks of a representation of `size` bytes.
struct range_request {
  enum class kind : uint8_t {
    whole,         ///< no usable range: answer 200 with everything (absent, not `bytes=`, malformed, several ranges)
    partial,       ///< answer 206 with `range`
    unsatisfiable, ///< answer 416 with `Content-Range: bytes */size`
  };
  kind what = kind::whole;
  byte_range range; ///< set when `partial`
};

/// Interprets `header` (the `Range` value, if any) against `size` bytes.
/// Forms: `bytes=a-b` (b clamped to the end), `bytes=a-`, `bytes=-n` (the
/// last n bytes). Several ranges are served whole, which RFC 9110 allows and
/// players never need; malformed values are ignored as the RFC requires.
range_request parse_range(std::optional<std::string_view> header, uint64_t size);

/// `bytes first-last/size`, the value of `Content-Range` on a 206.
std::string content_range(const byte_range& r, uint64_t size);

} // namespace svc::http
