#pragma once
// Price tables, one per API version, frozen once published: a job is priced
// by the table of the version its request applied. `price_image` and
// `price_video` are the only pricing functions: create and estimate both call
// them, so an estimate always equals the hold. Integer credits throughout.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "schema/generation_request.hpp"

namespace svc::schema {

/// One priced item.
struct price_item {
  std::string_view item;   ///< e.g. `image`
  std::string_view unit;   ///< what one `credits` buys, in words
  int64_t credits;
};

/// The table of one version.
struct price_table {
  std::string_view api_version;
  std::vector<price_item> items;
  /// Credits of `item` in this table; 0 if the version does not price it.
  int64_t credits(std::string_view item) const;
};

/// The table of a published version (the newest one for an unknown version).
const price_table& pricing_for(std::string_view api_version);

/// Pixels in one megapixel of the price table (2^20, so 1024x1024 is one).
inline constexpr int64_t pixels_per_megapixel = 1'048'576;

/// Megapixels of a `width` x `height` output, each started one counting whole.
int64_t started_megapixels(int64_t width, int64_t height);

/// One line of a price: the table item and the credits it adds.
struct price_line {
  std::string_view item; ///< a table item name (`image`, `image_steps`, `lora`, `video`)
  int64_t credits;
};

/// The cost of one request.
struct price_quote {
  int64_t credits = 0;            ///< the sum of `breakdown`
  std::vector<price_line> breakdown; ///< one line per item the request uses
};

/// An image: per output, `image` x started megapixels + `image_steps` x
/// started 10 steps above 30 + `lora` x `lora_count`. A line appears when its
/// quantity is non-zero, even if the version prices it at 0.
price_quote price_image(const image_request& r, std::size_t lora_count, const price_table& table);

/// A video (one output): `video` x seconds x started megapixels + `lora` x
/// `lora_count`; fps does not change the price.
price_quote price_video(const video_request& r, std::size_t lora_count, const price_table& table);

} // namespace svc::schema
