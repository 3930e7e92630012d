#include "providers/lora_styles.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "providers/styles.hpp"

namespace svc::providers {

namespace {

struct style_entry {
  style kind;
  std::string_view slug;
  void (*pass)(const image&, image&, const style_context&);
};

constexpr std::array<style_entry, 8> entries{{
  {style::low_poly, "low-poly", style_low_poly},
  {style::oil_painting, "oil-painting", style_oil_painting},
  {style::watercolor, "watercolor", style_watercolor},
  {style::ukiyo_e, "ukiyo-e", style_ukiyo_e},
  {style::pencil_sketch, "pencil-sketch", style_pencil_sketch},
  {style::neon_noir, "neon-noir", style_neon_noir},
  {style::pastel_dream, "pastel-dream", style_pastel_dream},
  {style::pixel_art, "pixel-art", style_pixel_art},
}};

const style_entry& entry(style s) { return entries[static_cast<std::size_t>(s)]; }

} // namespace

std::optional<style> style_from_slug(std::string_view slug) {
  for (const auto& e : entries)
    if (e.slug == slug) return e.kind;
  return std::nullopt;
}

std::string_view to_slug(style s) { return entry(s).slug; }

std::vector<style_weight> resolve_styles(const std::vector<lora_weight>& loras) {
  std::array<double, entries.size()> sum{};
  for (const auto& l : loras)
    if (auto s = style_from_slug(l.slug); s && std::isfinite(l.weight)) sum[static_cast<std::size_t>(*s)] += l.weight;
  std::vector<style_weight> out;
  for (std::size_t i = 0; i < sum.size(); ++i)
    if (sum[i] != 0.0) out.push_back({entries[i].kind, static_cast<float>(std::clamp(sum[i], -2.0, 2.0))});
  return out;
}

bool apply_styles(image& img, const std::vector<style_weight>& styles, uint64_t seed,
                  const cancel_token& cancel, const std::function<void(float)>& progress) {
  // Only a canvas with styles needs a second one (a video's keyframe often has none).
  image styled = styles.empty() ? image{} : image(img.width, img.height);
  for (std::size_t i = 0; i < styles.size(); ++i) {
    if (cancel.cancelled()) return false;
    const auto& s = styles[i];
    const float magnitude = std::min(std::fabs(s.weight), 2.f);
    const style_context ctx{magnitude, seed ^ (0x9E3779B97F4A7C15ULL * (static_cast<uint64_t>(s.kind) + 1))};
    entry(s.kind).pass(img, styled, ctx);
    const float t = s.weight > 0.f ? std::min(s.weight, 1.f) : -0.6f * std::min(magnitude, 1.f);
    for (std::size_t k = 0; k < img.px.size(); ++k) img.px[k] = clamp01(img.px[k] + (styled.px[k] - img.px[k]) * t);
    if (progress) progress(static_cast<float>(i + 1) / static_cast<float>(styles.size()));
  }
  return !cancel.cancelled();
}

} // namespace svc::providers
