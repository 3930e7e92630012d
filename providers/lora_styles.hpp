#pragma once
// Maps the built-in LoRA slugs to the renderer's style passes and blends them
// by weight: duplicates add up, unknown slugs are ignored, negative weights
// push the image away from a style.

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "providers/cancel_token.hpp"
#include "providers/image.hpp"
#include "providers/render_request.hpp"

namespace svc::providers {

/// The built-in styles, in the order they are applied: geometry and strokes
/// first, colour grading next, pixel quantisation last.
enum class style : uint8_t {
  low_poly,
  oil_painting,
  watercolor,
  ukiyo_e,
  pencil_sketch,
  neon_noir,
  pastel_dream,
  pixel_art,
};

/// One style to apply and how strongly.
struct style_weight {
  style kind;    ///< which pass
  float weight;  ///< summed per style, clamped to -2..2, never 0
};

/// The style of a built-in slug (`neon-noir`), if there is one.
std::optional<style> style_from_slug(std::string_view slug);

/// The catalogue slug of a style.
std::string_view to_slug(style s);

/// Sums the weights per known slug, drops unknown slugs and zero sums, clamps
/// each sum to -2..2 and orders the result for application.
std::vector<style_weight> resolve_styles(const std::vector<lora_weight>& loras);

/// Applies `styles` to `img` in order. A weight w in 0..1 blends that much of
/// the style in; above 1 the style's own parameters grow (bigger pixels, longer
/// strokes); below 0 the image moves away from the styled one (at most 60%).
/// Returns false when `cancel` fires between passes; `progress` gets 0..1.
bool apply_styles(image& img, const std::vector<style_weight>& styles, uint64_t seed,
                  const cancel_token& cancel, const std::function<void(float)>& progress);

} // namespace svc::providers
