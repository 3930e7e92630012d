#pragma once
// Byte sizes as operators write and read them: `512MiB`, `64GiB` in options,
// `3.6 MiB` in log lines.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace svc::core {

/// Parses plain digits or digits with a binary unit (`KiB`, `MiB`, `GiB`,
/// `TiB`); nothing when malformed or past 2^64.
std::optional<uint64_t> parse_byte_size(std::string_view text);

/// The shortest exact text in the largest unit that divides `bytes` (`64GiB`, `1000`).
std::string format_byte_size(uint64_t bytes);

/// A rounded size for people: `812 KiB`, `3.6 MiB`, `64.0 GiB`.
std::string human_bytes(uint64_t bytes);

} // namespace svc::core
