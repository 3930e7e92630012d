#pragma once
// fork/exec of the binaries under test, with a clean environment (no SVC_*
// variable of the caller leaks into svcd) and exit waits with deadlines.

#include <chrono>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace svc::e2e {

/// Starts `argv[0]` with `argv`; the child's stdin is /dev/null, its stdout
/// and stderr are dup'ed from the given descriptors, every other descriptor
/// is closed. Throws std::runtime_error when fork fails; an exec failure
/// shows as exit status 127.
pid_t spawn(const std::vector<std::string>& argv, int stdout_fd, int stderr_fd);

/// Waits up to `timeout` for `pid` to exit; returns its exit code (128 +
/// signal number when killed by a signal), or nothing if it is still running.
std::optional<int> wait_exit(pid_t pid, std::chrono::milliseconds timeout);

/// Whether `pid` has already exited (reaping it); its status goes to `status`.
bool has_exited(pid_t pid, int& status);

/// Reads a whole file; "" when it does not exist.
std::string read_file(const std::string& path);

/// The last `lines` lines of a file.
std::string tail_of_file(const std::string& path, std::size_t lines);

/// Creates a fresh directory /tmp/<prefix>XXXXXX; throws on failure.
std::string make_temp_dir(const std::string& prefix);

} // namespace svc::e2e
