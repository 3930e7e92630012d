#pragma once
// List paging parameters shared by every list route: `limit` 1..100
// (default 20, never clamped) and `starting_after` (an id of the list's kind).

#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "http/request_context.hpp"

namespace svc::http {

struct list_params {
  std::size_t limit = 20;
  std::string starting_after; ///< empty: from the newest
  std::map<std::string, std::string> filters; ///< the list's own parameters (`status`), as given
};

/// Reads the paging parameters and the list's `filters` (rejecting any other
/// query parameter); nullopt after answering 400 `invalid_parameter` /
/// `unknown_parameter`.
std::optional<list_params> read_list_params(const context_ptr& ctx, std::string_view id_prefix,
                                            std::initializer_list<std::string_view> filters = {});

} // namespace svc::http
