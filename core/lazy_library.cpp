#include "core/lazy_library.hpp"

#include <cstdlib>

#include <dlfcn.h>

#include "core/log.hpp"

namespace svc::core {

bool lazy_library::load(std::string& error) {
  std::call_once(once_, [this] {
    handle_ = ::dlopen(soname_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr)
      error_ = ::dlerror();
  });
  if (handle_ == nullptr)
    error = error_;
  return handle_ != nullptr;
}

void* lazy_library::symbol(const char* name) {
  std::string error;
  // With a handle, dlsym searches this library and its dependencies only,
  // never the executable, whose forwarder of the same name would call itself.
  void* found = load(error) ? ::dlsym(handle_, name) : nullptr;
  if (found == nullptr) {
    log_error("libraries", std::string{name} + " is not available: " + (error.empty() ? soname_ : error));
    std::abort();
  }
  return found;
}

} // namespace svc::core
