#pragma once
// What an actor that keeps counts answers to `describe_atom` for
// `/admin/actors`: its counts as `name=value` words, and its mailbox depth.

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "actors/mailbox_depth.hpp"
#include "actors/payloads.hpp"

namespace svc::actors {

/// A count as the status shows it: its name and value.
using status_count = std::pair<std::string_view, int64_t>;

/// `counts` as words, in order (`stored=3 failed=0`).
inline std::string count_words(std::initializer_list<status_count> counts) {
  std::string words;
  for (auto& [name, n] : counts)
    words.append(words.empty() ? "" : " ").append(name).append("=").append(std::to_string(n));
  return words;
}

/// The `describe_atom` answer of `self` with `counts`.
template <class Self>
actor_status counted_status(Self* self, std::initializer_list<status_count> counts) {
  return {count_words(counts), mailbox_depth(self)};
}

} // namespace svc::actors
