#include "providers/packed_image.hpp"

namespace svc::providers {
namespace {

uint16_t pack(float v) {
  const float q = (v + 0.5f) * 32768.f + 0.5f;
  return q > 0.f ? (q < 65535.f ? static_cast<uint16_t>(q) : uint16_t{65535}) : uint16_t{0};
}

} // namespace

packed_image::packed_image(const image& img) : width(img.width), height(img.height), px(img.px.size()) {
  for (std::size_t i = 0; i < px.size(); ++i) px[i] = {pack(img.px[i].r), pack(img.px[i].g), pack(img.px[i].b)};
}

} // namespace svc::providers
