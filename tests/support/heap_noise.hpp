#pragma once
// Fills the heap's free blocks with a pattern, so a determinism test can show
// that an output does not depend on what the process allocated before it
// (memory a library reads before it writes it would carry the pattern).

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace svc::test {

/// Allocates blocks from 64 bytes to 1 MiB (64-byte aligned, like codec
/// buffers), fills them with `pattern` and frees them again.
inline void leave_heap_filled_with(unsigned char pattern) {
  std::vector<void*> blocks;
  for (std::size_t size = 64; size <= (std::size_t{1} << 20); size = size * 3 / 2) {
    const std::size_t rounded = (size + 63) / 64 * 64;
    for (int i = 0; i < 4; ++i)
      if (void* p = std::aligned_alloc(64, rounded)) {
        std::memset(p, pattern, rounded);
        blocks.push_back(p);
      }
  }
  for (void* p : blocks) std::free(p);
}

} // namespace svc::test
