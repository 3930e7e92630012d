#include "schema/pricing.hpp"

namespace svc::schema {
namespace {

const std::vector<price_table>& tables() {
  static const std::vector<price_table> all{
    {"2026-01-15",
     {{"image", "per output, per started megapixel", 4},
      {"image_steps", "per output, per started 10 steps above 30", 1},
      {"lora", "per LoRA adapter, per output", 1},
      {"video", "per second, per started megapixel", 12}}},
    {"2026-09-01",
     {{"image", "per output, per started megapixel", 3},
      {"image_steps", "per output, per started 10 steps above 30", 1},
      {"lora", "per LoRA adapter, per output", 0},
      {"video", "per second, per started megapixel", 10}}},
  };
  return all;
}

void add_line(price_quote& q, std::string_view item, int64_t credits) {
  q.breakdown.push_back({item, credits});
  q.credits += credits;
}

} // namespace

int64_t price_table::credits(std::string_view name) const {
  for (auto& i : items)
    if (i.item == name)
      return i.credits;
  return 0;
}

const price_table& pricing_for(std::string_view api_version) {
  for (auto& t : tables())
    if (t.api_version == api_version)
      return t;
  return tables().back();
}

int64_t started_megapixels(int64_t width, int64_t height) {
  return (width * height + pixels_per_megapixel - 1) / pixels_per_megapixel;
}

price_quote price_image(const image_request& r, std::size_t lora_count, const price_table& table) {
  int64_t outputs = r.num_outputs;
  int64_t step_blocks = r.steps > 30 ? (r.steps - 30 + 9) / 10 : 0;
  auto loras = static_cast<int64_t>(lora_count);
  price_quote q;
  add_line(q, "image", outputs * started_megapixels(r.width, r.height) * table.credits("image"));
  if (step_blocks > 0)
    add_line(q, "image_steps", outputs * step_blocks * table.credits("image_steps"));
  if (loras > 0)
    add_line(q, "lora", outputs * loras * table.credits("lora"));
  return q;
}

price_quote price_video(const video_request& r, std::size_t lora_count, const price_table& table) {
  auto loras = static_cast<int64_t>(lora_count);
  price_quote q;
  add_line(q, "video", int64_t{r.duration_seconds} * started_megapixels(r.width, r.height) * table.credits("video"));
  // A video is one output, so an adapter costs what it costs on one image.
  if (loras > 0)
    add_line(q, "lora", loras * table.credits("lora"));
  return q;
}

} // namespace svc::schema
