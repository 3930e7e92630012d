#pragma once
// Price tables, one per API version, frozen once published: a job is priced
// by the table of the version its request applied.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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

} // namespace svc::schema
