#pragma once
// How much memory svcd took at its peak, from /proc: tests that feed it a
// huge answer check that it did not hold the answer.

#include <cstdint>
#include <sys/types.h>

namespace svc::e2e {

/// The peak resident set of `pid` in KiB (VmHWM) since it started or since
/// the last `reset_peak_rss`; -1 when it cannot be read.
std::int64_t peak_rss_kib(pid_t pid);

/// Lowers the peak resident set of `pid` to its current one (`5` into
/// /proc/PID/clear_refs); false when that is not allowed.
bool reset_peak_rss(pid_t pid);

/// False in an AddressSanitizer build: ASan keeps freed memory in its
/// quarantine (256 MiB by default), so svcd's peak then measures how much it
/// allocated in all, not how much it held at once.
constexpr bool peak_rss_measures_held_memory() {
#if defined(__SANITIZE_ADDRESS__)
  return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return false;
#else
  return true;
#endif
#else
  return true;
#endif
}

} // namespace svc::e2e
