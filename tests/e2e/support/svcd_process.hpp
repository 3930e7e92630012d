#pragma once
// One svcd under test: a fresh data directory, ephemeral ports on 127.0.0.1,
// its log in DIR/svcd.log, stop by SIGTERM with the exit status (or SIGKILL),
// restart on the same data directory (optionally with other options), and
// cleanup when it goes out of scope.

#include <string>
#include <sys/types.h>
#include <vector>

namespace svc::e2e {

/// Names a data directory that already exists (a restored backup); the
/// process takes it over and removes it like its own.
struct existing_data_dir {
  std::string path; ///< the directory
};

/// A running svcd. Not copyable; the destructor kills it if still running
/// and removes the data directory (kept when SVC_E2E_KEEP is set or
/// `keep_data_dir()` was called).
class svcd_process {
public:
  /// Creates /tmp/svc-e2e-XXXXXX and starts svcd on it with `extra_args`
  /// after `--data-dir --listen 127.0.0.1:0 --admin-listen 127.0.0.1:0`.
  /// Throws std::runtime_error (with the log tail) if it is not up within 15 s.
  explicit svcd_process(std::vector<std::string> extra_args = {});
  /// Starts svcd on an existing data directory.
  explicit svcd_process(existing_data_dir dir, std::vector<std::string> extra_args = {});
  ~svcd_process();
  svcd_process(const svcd_process&) = delete;
  svcd_process& operator=(const svcd_process&) = delete;

  /// SIGTERM, then waits up to 15 s; returns the exit code (128 + signal if
  /// killed), or -1 when it did not exit (it is SIGKILLed then).
  int stop();
  /// SIGKILL and reap.
  void kill9();
  /// Stops it if running (returning that exit code, else 0) and starts it
  /// again on the same data directory with the same arguments; new ports.
  int restart();
  /// Starts it when stopped; throws like the constructor.
  void start();
  /// Replaces the arguments after the listener options for the next start
  /// (a restart with other options on the same data directory).
  void set_extra_args(std::vector<std::string> extra_args);
  /// Leaves the data directory in place when destroyed, as SVC_E2E_KEEP
  /// does, so a failure can be examined.
  void keep_data_dir();

  /// Whether the process is running (not yet reaped).
  bool running() const;
  /// Process id of the current run.
  pid_t pid() const;
  /// The data directory.
  const std::string& data_dir() const;
  /// `http://127.0.0.1:PORT` of the public listener (from svcd.json).
  const std::string& api_url() const;
  /// `http://127.0.0.1:PORT` of the admin listener (from svcd.json).
  const std::string& admin_url() const;
  /// Contents of DIR/admin.token without surrounding whitespace.
  std::string admin_token() const;
  /// Path of DIR/svcd.log (stdout and stderr of every run).
  std::string log_path() const;
  /// The last `lines` lines of the log.
  std::string log_tail(std::size_t lines = 40) const;

private:
  std::vector<std::string> extra_args_;
  std::string data_dir_;
  std::string api_url_;
  std::string admin_url_;
  pid_t pid_ = -1;
  bool keep_ = false;
};

} // namespace svc::e2e
