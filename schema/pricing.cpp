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

} // namespace svc::schema
