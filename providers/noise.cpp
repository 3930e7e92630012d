#include "providers/noise.hpp"

namespace svc::providers {

value_noise::value_noise(uint64_t seed) : table_(static_cast<std::size_t>(size) * size) {
  // splitmix64: cheap, and the lattice needs uniformity, not secrecy.
  uint64_t z = seed;
  for (float& v : table_) {
    z += 0x9E3779B97F4A7C15ULL;
    uint64_t x = z;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    x ^= x >> 31;
    v = static_cast<float>(x >> 40) * (1.0f / 16777216.0f);
  }
}

} // namespace svc::providers
