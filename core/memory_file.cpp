#include "core/memory_file.hpp"

#include <algorithm>
#include <cstring>
#include <new>

namespace svc::core {

bool memory_file::write_at(uint64_t offset, const char* data, std::size_t size, std::string& error) {
  try {
    const auto end = static_cast<std::size_t>(offset) + size;
    if (end > bytes_.size())
      bytes_.resize(end);
    std::memcpy(bytes_.data() + offset, data, size);
    return true;
  } catch (const std::bad_alloc&) {
    error = "out of memory";
    return false;
  }
}

int64_t memory_file::read_at(uint64_t offset, char* data, std::size_t size) const {
  if (offset >= bytes_.size())
    return 0;
  const auto n = std::min<std::size_t>(size, bytes_.size() - static_cast<std::size_t>(offset));
  std::memcpy(data, bytes_.data() + offset, n);
  return static_cast<int64_t>(n);
}

} // namespace svc::core
