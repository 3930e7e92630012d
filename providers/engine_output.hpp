#pragma once
// What every engine back end does with an engine's output files: bound
// them before reading, and decode the `data:` URIs Cog answers with.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "providers/render_request.hpp"

namespace svc::providers {

/// The largest output an engine may honestly send for `req`: an uncompressed
/// RGBA frame per image, and for a video that per frame, both with 1 MiB of
/// headers. More is refused unread.
std::size_t output_limit(const render_request& req);

/// A decoded `data:` URI.
struct data_uri {
  std::string media_type; ///< `image/png`; empty when the URI names none
  std::string bytes;
};

/// Decodes `data:[<type>][;...];base64,<data>` of at most `limit` decoded
/// bytes; nothing with `error` when it is not one, or is larger.
std::optional<data_uri> decode_data_uri(std::string_view uri, std::size_t limit, std::string& error);

} // namespace svc::providers
