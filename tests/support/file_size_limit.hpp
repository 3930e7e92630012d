#pragma once
// A full disk without root: RLIMIT_FSIZE makes writes past a size fail with
// EFBIG, as they fail with ENOSPC on a full disk. SIGXFSZ, which the kernel
// sends with EFBIG and which kills by default, is ignored meanwhile unless the
// caller tests a child's own handling of it. Both are put back when the guard
// ends. The limit holds for the whole process and is inherited by children
// started meanwhile (an svcd under test), as an ignored signal is.

#include <csignal>
#include <cstdint>
#include <stdexcept>

#include <sys/resource.h>

namespace svc::test {

class file_size_limit {
public:
  /// Files of this process may grow to `bytes` and no further.
  explicit file_size_limit(uint64_t bytes, bool ignore_sigxfsz = true) {
    if (::getrlimit(RLIMIT_FSIZE, &before_) != 0)
      throw std::runtime_error("getrlimit(RLIMIT_FSIZE) failed");
    if (ignore_sigxfsz)
      previous_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    else
      previous_handler_ = std::signal(SIGXFSZ, SIG_DFL);
    rlimit limited = before_;
    limited.rlim_cur = static_cast<rlim_t>(bytes);
    if (::setrlimit(RLIMIT_FSIZE, &limited) != 0)
      throw std::runtime_error("setrlimit(RLIMIT_FSIZE) failed");
  }
  ~file_size_limit() { lift(); }
  file_size_limit(const file_size_limit&) = delete;
  file_size_limit& operator=(const file_size_limit&) = delete;

  /// Ends the limit early (a child started meanwhile keeps it).
  void lift() {
    if (lifted_)
      return;
    lifted_ = true;
    ::setrlimit(RLIMIT_FSIZE, &before_);
    std::signal(SIGXFSZ, previous_handler_);
  }

private:
  rlimit before_{};
  void (*previous_handler_)(int) = SIG_DFL;
  bool lifted_ = false;
};

} // namespace svc::test
