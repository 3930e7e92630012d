#pragma once
// A real single-member etcd (/usr/bin/etcd) for the unit and cluster e2e
// tests: a fresh temp directory, client and peer URLs on free loopback ports,
// its output kept in <dir>/etcd.log, stopped with the object. etcd is killed
// when the thread that created the object ends: create it on a thread that
// outlives it (a test body or fixture on the main thread).

#include <chrono>
#include <cstdint>
#include <string>

#include <sys/types.h>

namespace svc::test {

class etcd_server {
public:
  /// Starts etcd and returns once it answers a range, within `ready_within`.
  /// A start that loses a port to another process is retried on new ports.
  /// Throws std::runtime_error (with the end of etcd's log) when it fails.
  explicit etcd_server(std::chrono::milliseconds ready_within = std::chrono::seconds{30});
  /// SIGTERM, SIGKILL after a grace period, then removes the directory.
  ~etcd_server();
  etcd_server(const etcd_server&) = delete;
  etcd_server& operator=(const etcd_server&) = delete;

  /// "127.0.0.1:PORT" of the client URL, as etcd_client takes it.
  std::string endpoint() const;
  /// SIGKILL now (a crash); `endpoint()` then refuses connections. Idempotent.
  void kill();
  /// The file holding etcd's stdout and stderr.
  std::string log_path() const;

private:
  // One start on fresh ports; false when etcd exited because a port was taken.
  bool start(std::chrono::steady_clock::time_point deadline);
  // Reaps etcd within `grace`; false if it is still running.
  bool reaped_within(std::chrono::milliseconds grace);
  [[noreturn]] void fail(const std::string& why);

  std::string dir_;
  pid_t pid_ = -1;
  std::uint16_t client_port_ = 0;
  std::uint16_t peer_port_ = 0;
};

} // namespace svc::test
