#pragma once
// Splits prompts into words, the unit both the renderer's keyword reading and
// moderation's whole-word matching work on.

#include <string>
#include <string_view>
#include <vector>

namespace svc::providers {

/// The words of `text` in order, ASCII letters lowercased. A word is a run of
/// ASCII letters, digits or non-ASCII bytes (so UTF-8 letters stay inside words).
std::vector<std::string> split_words(std::string_view text);

} // namespace svc::providers
