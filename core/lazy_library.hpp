#pragma once
// A shared library opened on first use instead of at start. FFmpeg's and
// libcurl's libraries, with the dozens each depends on, add megabytes to a
// process's resident set and its start-up while only videos, uploads and
// mail need them. The code that calls them links no library: it defines
// the functions it calls with SVC_LAZY_FORWARD, each resolved in the
// opened library on its first call.

#include <mutex>
#include <string>
#include <utility>

namespace svc::core {

/// One library, opened once by its soname (RTLD_NOW | RTLD_LOCAL, so its
/// symbols stay out of the global scope) and never closed: the libraries
/// keep process-wide state that objects still in use may need. Thread-safe.
class lazy_library {
public:
  /// Names the library (`libcurl.so.4`); opens nothing.
  explicit lazy_library(std::string soname) : soname_{std::move(soname)} {}
  lazy_library(const lazy_library&) = delete;
  lazy_library& operator=(const lazy_library&) = delete;

  /// Opens it on the first call; false, with dlopen's reason in `error`,
  /// when it cannot be (then every later call says so too).
  bool load(std::string& error);

  /// The library's own definition of `name`. Opens the library if needed;
  /// logs and aborts when the library or the symbol is missing, which a
  /// caller that checked `load` first only sees with a broken install.
  void* symbol(const char* name);

private:
  std::string soname_;
  std::once_flag once_;
  void* handle_ = nullptr;
  std::string error_;
};

} // namespace svc::core

/// Defines the C function `name` (as its header declares it: a different
/// signature does not compile) as a forwarder to its definition in
/// `library` (a core::lazy_library), resolved once, on the first call.
#define SVC_LAZY_FORWARD(library, ret, name, params, args)                                      \
  extern "C" ret name params {                                                                  \
    static auto* const real = reinterpret_cast<decltype(&name)>((library).symbol(#name));      \
    return real args;                                                                           \
  }
