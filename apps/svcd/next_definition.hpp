#pragma once
// The definition a call would have reached without svcd's own: how the TLS
// workarounds (tls_error_queue.cpp, tls_sigpipe_guard.cpp), which define
// functions of libssl and libc in svcd, forward to the libraries' own.

#include <dlfcn.h>

/// The next definition of `name` after this object's, as a `Fn`.
template <class Fn>
Fn next_definition(const char* name) {
  return reinterpret_cast<Fn>(::dlsym(RTLD_NEXT, name));
}
