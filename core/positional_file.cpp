#include "core/positional_file.hpp"

#include <vector>

namespace svc::core {

std::optional<digest> sha256_of(const positional_file& file) {
  sha256_stream hash;
  std::vector<char> chunk(64 * 1024);
  for (uint64_t at = 0, size = file.size(); at < size;) {
    auto n = file.read_at(at, chunk.data(), chunk.size());
    if (n <= 0) // a file shorter than its size says is a read error too
      return std::nullopt;
    hash.add({chunk.data(), static_cast<std::size_t>(n)});
    at += static_cast<uint64_t>(n);
  }
  return hash.finish();
}

} // namespace svc::core
