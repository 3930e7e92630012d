#pragma once
// A program of examples/ (Python, Node) run against a real svcd: its stdout
// and stderr in one file of its own temporary directory, killed when it goes
// out of scope if it has not exited.

#include <chrono>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace svc::e2e {

class script_run {
public:
  /// Starts `interpreter script args...` with the `env` settings (`NAME=value`) added.
  script_run(const std::vector<std::string>& env, const std::string& interpreter, const std::string& script,
             const std::vector<std::string>& args = {});
  ~script_run();
  script_run(const script_run&) = delete;
  script_run& operator=(const script_run&) = delete;

  /// The exit code, or -1 when it did not exit within `timeout`.
  int wait(std::chrono::milliseconds timeout);
  /// Everything it printed so far.
  std::string output() const;
  /// Waits until the output holds `text`.
  bool wait_output(const std::string& text, std::chrono::milliseconds timeout) const;
  /// Its temporary directory, removed with it: room for what it writes.
  const std::string& dir() const { return dir_; }

private:
  std::string output_path() const { return dir_ + "/output.txt"; }
  std::string dir_;
  pid_t pid_ = -1;
  std::optional<int> exit_code_;
};

} // namespace svc::e2e
