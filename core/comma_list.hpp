#pragma once
// Lists given as one text with commas between the items (`5s,30s,2m`), as
// options take them; each kind of item keeps its own parser.

#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

namespace svc::core {

/// The items of `text` split at every comma, each read by `parse_item`
/// (string_view -> std::optional<T>); nothing when any item is not one. An
/// empty `text` is one empty item.
template <class Parse>
auto parse_comma_list(std::string_view text, Parse parse_item)
  -> std::optional<std::vector<typename std::invoke_result_t<Parse, std::string_view>::value_type>> {
  std::vector<typename std::invoke_result_t<Parse, std::string_view>::value_type> out;
  while (true) {
    auto comma = text.find(',');
    auto item = parse_item(text.substr(0, comma));
    if (!item)
      return std::nullopt;
    out.push_back(std::move(*item));
    if (comma == std::string_view::npos)
      return out;
    text.remove_prefix(comma + 1);
  }
}

} // namespace svc::core
