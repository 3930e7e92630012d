#pragma once
// The commands of the load-testers' scenarios, create, read and mixed: their
// options (closed or open loop, --out, --allow-remote), the setup, the run,
// the report, the SUMMARY line, the --out files and the exit status.

namespace svc::bench {

/// `svc-bench create ...`; argv[0] is "create". Returns the exit status.
int run_create_command(int argc, char** argv, const char* argv0);

/// `svc-bench read ...`; argv[0] is "read".
int run_read_command(int argc, char** argv, const char* argv0);

/// `svc-bench mixed ...`; argv[0] is "mixed".
int run_mixed_command(int argc, char** argv, const char* argv0);

} // namespace svc::bench
