#pragma once
// The eight built-in LoRA looks as image-to-image passes. Each writes the
// full-strength styled image; lora_styles.cpp blends it with its input by the
// request's weight. Internal to providers/.

#include <cstdint>

#include "providers/image.hpp"

namespace svc::providers {

/// What a pass may vary besides its input.
struct style_context {
  float amount = 1.f;  ///< |weight| capped at 2: scales block size, stroke length, line density
  uint64_t seed = 0;   ///< grain, stroke and sparkle placement
};

/// Soft bleeding washes, pooled pigment at edges, uneven blooms, paper grain.
void style_watercolor(const image& src, image& out, const style_context& ctx);
/// Dark, blue-black shadows; magenta and cyan glowing outlines; rain streaks.
void style_neon_noir(const image& src, image& out, const style_context& ctx);
/// Directional impasto strokes with bristle relief, warm varnished palette, canvas weave.
void style_oil_painting(const image& src, image& out, const style_context& ctx);
/// Big square pixels, ordered dithering, a 32-colour retro palette.
void style_pixel_art(const image& src, image& out, const style_context& ctx);
/// Flat woodblock colours, dark outlines, wave-scale pattern in water, sky gradient band.
void style_ukiyo_e(const image& src, image& out, const style_context& ctx);
/// Graphite hatching by tone and contour lines on off-white paper.
void style_pencil_sketch(const image& src, image& out, const style_context& ctx);
/// Flat-shaded triangles over a jittered grid.
void style_low_poly(const image& src, image& out, const style_context& ctx);
/// Milky pastel colours, a pink-lavender-mint wash, bloom and sparkles.
void style_pastel_dream(const image& src, image& out, const style_context& ctx);

} // namespace svc::providers
