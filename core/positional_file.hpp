#pragma once
// A file written and read back at any offset: the seam through which a
// producer (the MP4 muxer, which patches headers and rereads what it wrote)
// streams its output to wherever it is kept (a blob's temp file, memory)
// without holding it whole or knowing where it goes.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/crypto.hpp"

namespace svc::core {

/// Not thread-safe: one user at a time.
class positional_file {
public:
  virtual ~positional_file() = default;
  /// Writes all `size` bytes of `data` at `offset`; past the end the file
  /// grows (a gap reads as zeros). False with the reason in `error`.
  virtual bool write_at(uint64_t offset, const char* data, std::size_t size, std::string& error) = 0;
  /// Reads up to `size` bytes from `offset` into `data`: how many were read
  /// (fewer only at the end, 0 at or past it), or -1 on a read error.
  virtual int64_t read_at(uint64_t offset, char* data, std::size_t size) const = 0;
  /// One past the highest byte written.
  virtual uint64_t size() const = 0;
};

/// SHA-256 of the whole file, read in chunks; nullopt on a read error.
std::optional<digest> sha256_of(const positional_file& file);

} // namespace svc::core
