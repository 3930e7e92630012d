#pragma once
// The whole svcd process: opens the data directory, starts the actor
// runtime, binds both listeners, writes `svcd.json`, serves until SIGTERM or
// SIGINT, then drains connections, persists what actors hold and exits.

#include "core/config.hpp"

namespace svc::svcd {

/// Runs svcd with `cfg`; returns the process exit code (0 after a clean drain).
int run_server(const core::config& cfg);

} // namespace svc::svcd
