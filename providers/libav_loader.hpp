#pragma once
// FFmpeg's libraries are loaded on first use, not at start: with their
// ~110 dependencies (x264, x265, dav1d, libvpx, ...) they added ~17 MiB to
// svcd's idle resident set (bench/run-idle-bench) and to svcctl's start-up,
// yet only videos and init images need them. svc_providers defines the libav
// functions it calls (libav_loader.cpp) as forwarders into the libraries
// opened here (core/lazy_library.hpp).

#include <string>

namespace svc::providers {

/// Loads libavutil, libavcodec, libavformat and libswscale (the major
/// versions built against) and silences libav's own logging, once per
/// process; later calls only report the first outcome. Call before any libav
/// function: false, with dlopen's reason in `error`, when a library is
/// missing. Thread-safe.
bool load_libav(std::string& error);

} // namespace svc::providers
