#pragma once
// The value of each Svc field that an engine's workflow binding (ComfyUI)
// or input map (Cog) names, for the fields both take alike.

#include <string_view>

#include <boost/json/value.hpp>

#include "providers/render_request.hpp"

namespace svc::providers {

/// `prompt`, `negative_prompt`, `seed`, `width`, `height`, `steps`, and for
/// a video `frames` (duration x fps) and `fps`; null for any other field,
/// and for the video fields of an image.
boost::json::value request_field(std::string_view field, const render_request& r);

} // namespace svc::providers
