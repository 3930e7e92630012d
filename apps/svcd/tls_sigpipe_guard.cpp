// CAF's TLS transport without its three signal system calls per TLS call.
//
// Why this file exists: CAF 0.17.6's TLS transport (libcaf_openssl,
// session.cpp, CAF_BLOCK_SIGPIPE) wraps every SSL_read, SSL_write and
// handshake step, including the empty writes it makes to poll, in
// pthread_sigmask(SIG_BLOCK, {SIGPIPE}), sigtimedwait({SIGPIPE}, 0) and
// pthread_sigmask(SIG_SETMASK, saved): three system calls, so that a write to
// a dead peer cannot kill the process. Measured on a forwarded request
// (bench/run-cluster-bench, perf over n1 and n2): they were 39% of the
// forwarding node's system calls and 50% of the owner's.
//
// svcd ignores SIGPIPE instead (below, before main): a write to a dead peer
// then fails with EPIPE and no signal is raised or left pending, so the
// guard has nothing to do. svcd defines the two functions; the dynamic
// linker binds libcaf_openssl's calls (and every other caller's) to them
// ahead of libc's. Calls made from libcaf_openssl's code with exactly the
// guard's arguments return at once; every other call goes to libc's. Linked
// into svcd only (apps/CMakeLists.txt).
#include <dlfcn.h>
#include <link.h>
#include <signal.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "apps/svcd/next_definition.hpp"

namespace {

/// libcaf_openssl's executable code, found once at load.
struct code_range {
  std::uintptr_t begin = 0, end = 0;
  bool contains(const void* address) const {
    auto a = reinterpret_cast<std::uintptr_t>(address);
    return a >= begin && a < end;
  }
};

code_range caf_openssl_code() {
  code_range range;
  ::dl_iterate_phdr(
    [](dl_phdr_info* info, std::size_t, void* out) {
      if (!info->dlpi_name || std::string_view{info->dlpi_name}.find("libcaf_openssl") == std::string_view::npos)
        return 0;
      for (int i = 0; i < info->dlpi_phnum; ++i) {
        auto& segment = info->dlpi_phdr[i];
        if (segment.p_type == PT_LOAD && (segment.p_flags & PF_X)) {
          auto* r = static_cast<code_range*>(out);
          r->begin = info->dlpi_addr + segment.p_vaddr;
          r->end = r->begin + segment.p_memsz;
          return 1;
        }
      }
      return 0;
    },
    &range);
  return range;
}

bool ignores_sigpipe = false;
code_range guard_code;

// Runs before main, while the process has one thread: without SIGPIPE
// ignored, skipping the guard would let a dead peer kill svcd.
__attribute__((constructor)) void ignore_sigpipe() {
  struct sigaction ignore = {};
  ignore.sa_handler = SIG_IGN;
  ::sigemptyset(&ignore.sa_mask);
  ignores_sigpipe = ::sigaction(SIGPIPE, &ignore, nullptr) == 0;
  guard_code = caf_openssl_code();
}

// Compares the signals the kernel knows (1 to 64): glibc's sigemptyset
// clears only those bytes of a sigset_t, the rest is whatever the stack held.
bool is_only_sigpipe(const sigset_t* set) {
  if (!set)
    return false;
  sigset_t only;
  ::sigemptyset(&only);
  ::sigaddset(&only, SIGPIPE);
  return std::memcmp(set, &only, (_NSIG - 1) / 8) == 0;
}

/// This thread is between a skipped SIG_BLOCK and its SIG_SETMASK.
thread_local bool guard_skipped = false;

} // namespace

extern "C" {

int pthread_sigmask(int how, const sigset_t* set, sigset_t* old) {
  static auto real = next_definition<int (*)(int, const sigset_t*, sigset_t*)>("pthread_sigmask");
  if (ignores_sigpipe && guard_code.contains(__builtin_return_address(0))) {
    if (how == SIG_BLOCK && is_only_sigpipe(set)) {
      guard_skipped = true;
      if (old) // the guard only hands it back to SIG_SETMASK below
        ::sigemptyset(old);
      return 0;
    }
    if (how == SIG_SETMASK && guard_skipped) {
      guard_skipped = false;
      return 0;
    }
  }
  return real(how, set, old);
}

int sigtimedwait(const sigset_t* set, siginfo_t* info, const struct timespec* timeout) {
  static auto real = next_definition<int (*)(const sigset_t*, siginfo_t*, const struct timespec*)>("sigtimedwait");
  // An ignored SIGPIPE is never pending: the guard's poll would find nothing.
  if (ignores_sigpipe && guard_skipped && timeout && timeout->tv_sec == 0 && timeout->tv_nsec == 0
      && is_only_sigpipe(set) && guard_code.contains(__builtin_return_address(0))) {
    errno = EAGAIN;
    return -1;
  }
  return real(set, info, timeout);
}

} // extern "C"
