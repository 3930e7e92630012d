#pragma once
// CPU time of this process, so a run can say whether the harness itself was
// near a core (and so capped the figure it reports).

namespace svc::bench {

/// User + system CPU seconds of this process (every thread) so far.
double process_cpu_seconds();

} // namespace svc::bench
