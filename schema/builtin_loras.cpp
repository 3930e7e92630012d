#include "schema/builtin_loras.hpp"

namespace svc::schema {

const std::vector<builtin_lora>& builtin_loras() {
  static const std::vector<builtin_lora> all{
    {"watercolor", "Watercolor", "Soft washes of translucent colour that bleed into paper texture.",
     {"watercolor", "watercolour", "painted", "wash", "soft"}},
    {"neon-noir", "Neon Noir", "Rain-slick night scenes in magenta and cyan neon with deep shadows.",
     {"neon", "cyberpunk", "night", "city", "noir", "synthwave"}},
    {"oil-painting", "Oil Painting", "Thick impasto strokes and warm, old-master colour.",
     {"oil", "painting", "impasto", "canvas", "portrait", "classical"}},
    {"pixel-art", "Pixel Art", "Crisp low-resolution pixels with a limited retro palette.",
     {"pixel", "8-bit", "16-bit", "retro", "sprite", "game"}},
    {"ukiyo-e", "Ukiyo-e", "Flat woodblock colours, bold outlines and wave patterns.",
     {"ukiyo-e", "woodblock", "japanese", "wave", "edo"}},
    {"pencil-sketch", "Pencil Sketch", "Graphite hatching on off-white paper.",
     {"sketch", "pencil", "drawing", "graphite", "hatching", "charcoal"}},
    {"low-poly", "Low Poly", "Faceted geometric shapes with flat-shaded gradients.",
     {"low-poly", "lowpoly", "geometric", "polygon", "3d", "faceted"}},
    {"pastel-dream", "Pastel Dream", "Hazy pastel gradients with a dreamy glow.",
     {"pastel", "dreamy", "dream", "cute", "kawaii", "soft"}},
  };
  return all;
}

} // namespace svc::schema
