#pragma once
// The renderer's only source of randomness: xoshiro256** seeded from a
// SHA-256 digest of the request, so equal inputs give equal images on every
// run and machine (std distributions are implementation-defined; not used).

#include <cstdint>
#include <cstring>

#include "core/crypto.hpp"

namespace svc::providers {

/// A deterministic pseudo-random generator.
class rng {
public:
  /// Seeds the 256-bit state from a digest.
  explicit rng(const core::digest& d) {
    std::memcpy(s_, d.data(), sizeof s_);
    if ((s_[0] | s_[1] | s_[2] | s_[3]) == 0) s_[0] = 1; // the all-zero state is a fixed point
  }

  /// The next 64 random bits.
  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  /// Uniform in [0, 1).
  float uniform() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }

  /// Uniform in [lo, hi).
  float range(float lo, float hi) { return lo + (hi - lo) * uniform(); }

  /// Uniform integer in [0, n); n > 0.
  int below(int n) { return static_cast<int>((next() >> 33) % static_cast<uint64_t>(n)); }

  /// True with probability p.
  bool chance(float p) { return uniform() < p; }

private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

} // namespace svc::providers
