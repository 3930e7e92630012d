#pragma once
// UTF-8 checks for user text. Length limits of the API count Unicode code
// points, so a 4000-character prompt in Japanese is as long as one in English.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace svc::schema {

/// Number of code points in `s`; nullopt if `s` is not well-formed UTF-8
/// (overlong forms, surrogates and values above U+10FFFF are ill-formed).
std::optional<std::size_t> utf8_length(std::string_view s);

/// `s` with every byte that starts no well-formed sequence replaced by
/// U+FFFD, so client bytes echoed in an answer always make valid JSON.
std::string utf8_sanitized(std::string_view s);

/// The longest prefix of `s` with at most `max_bytes` bytes that does not end
/// inside a multi-byte sequence (for quoting user input in error messages).
std::string_view utf8_prefix(std::string_view s, std::size_t max_bytes);

} // namespace svc::schema
