#pragma once
// The crash campaign: one svcd on one data directory, teams made through
// svcctl, then CYCLES times: mixed load for a random 0.3-3 s, SIGKILL, a
// restart on the same data directory, and the checks of checks.hpp. Ends
// with a graceful stop and a summary.

#include "options.hpp"

namespace svc::chaos {

/// Runs the campaign; returns the process exit code (0: no violation).
int run_campaign(const campaign_options& options);

} // namespace svc::chaos
