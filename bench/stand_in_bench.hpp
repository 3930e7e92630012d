#pragma once
// What the benches on engine stand-ins share (svc-engine-bench,
// svc-fleet-bench): the temporary files they hand svcd, and percentiles of
// their samples.

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace svc::bench {

/// Writes `text` to a new file /tmp/svc-bench-XXXXXX`suffix`; its path.
inline std::string write_temp(const std::string& text, const std::string& suffix) {
  char path[] = "/tmp/svc-bench-XXXXXX";
  int fd = ::mkstemp(path);
  if (fd < 0)
    throw std::runtime_error("mkstemp failed");
  ::close(fd);
  std::string named = std::string{path} + suffix;
  std::rename(path, named.c_str());
  std::ofstream{named} << text;
  return named;
}

/// The nearest-rank `p` (0..1) of `v`; 0 for none.
inline double percentile(std::vector<double> v, double p) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  auto i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

} // namespace svc::bench
