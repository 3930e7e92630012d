#pragma once
// A real single-member etcd (/usr/bin/etcd) for the unit and cluster e2e
// tests: a fresh temp directory, client and peer URLs on free loopback ports,
// its output kept in <dir>/etcd.log, stopped with the object. etcd is killed
// when the thread that created the object ends: create it on a thread that
// outlives it (a test body or fixture on the main thread).
//
// A secured etcd takes clients as production should: HTTPS with client
// certificates of a test CA (--client-cert-auth, --trusted-ca-file), and RBAC
// enabled, with one user that may read and write under "/svc" only.

#include <chrono>
#include <cstdint>
#include <string>

#include <sys/types.h>

namespace svc::test {

enum class etcd_mode {
  open,    ///< plain HTTP, no authentication
  secured, ///< HTTPS with client certificates, and RBAC
};

/// What a client of a secured etcd needs, as files (all empty when open).
struct etcd_credentials {
  std::string ca;            ///< signed etcd's certificate and the client's
  std::string cert;          ///< a client certificate etcd takes (no CommonName)
  std::string key;           ///< its key (0600)
  std::string user;          ///< the RBAC user, readwrite under "/svc"
  std::string password;      ///< its password
  std::string password_file; ///< holding it (0600)
};

class etcd_server {
public:
  /// Starts etcd and returns once it answers a range, within `ready_within`
  /// (a secured one also has its user and auth enabled by then). A start
  /// that loses a port to another process is retried on new ports. Throws
  /// std::runtime_error (with the end of etcd's log) when it fails.
  explicit etcd_server(etcd_mode mode = etcd_mode::open,
                       std::chrono::milliseconds ready_within = std::chrono::seconds{30});
  /// SIGTERM, SIGKILL after a grace period, then removes the directory.
  ~etcd_server();
  etcd_server(const etcd_server&) = delete;
  etcd_server& operator=(const etcd_server&) = delete;

  /// "127.0.0.1:PORT" of the client URL, as etcd_client takes it.
  std::string endpoint() const;
  /// SIGKILL now (a crash); `endpoint()` then refuses connections. Idempotent.
  void kill();
  /// Kills etcd if it runs and starts it again on its data and ports (its
  /// users and roles kept; the login tokens it handed out are forgotten), as
  /// an operator's restart after a crash; returns once it answers. Throws
  /// std::runtime_error when it does not within `ready_within`.
  void restart(std::chrono::milliseconds ready_within = std::chrono::seconds{30});
  /// The file holding etcd's stdout and stderr.
  std::string log_path() const;
  /// A secured etcd's client files and user.
  const etcd_credentials& credentials() const { return credentials_; }
  /// Makes a secured etcd forget every login token of the user (its
  /// password is set again, to the same value), as an expiry would.
  void forget_tokens();

private:
  // Writes the test CA, etcd's certificate and the client's into dir_.
  void write_credentials();
  // Adds root and the user with its role, and enables auth.
  void enable_auth();
  // One call to etcd's gateway as root (logged in unless `root_token` is empty); its answer's body.
  std::string admin_call(const std::string& path, const std::string& body, const std::string& root_token = {});
  // One start on fresh ports and a fresh data directory; false when etcd exited because a port was taken.
  bool start(std::chrono::steady_clock::time_point deadline);
  // Starts etcd on the ports and data chosen and waits until it answers; false like `start`.
  bool launch(std::chrono::steady_clock::time_point deadline);
  // Reaps etcd within `grace`; false if it is still running.
  bool reaped_within(std::chrono::milliseconds grace);
  [[noreturn]] void fail(const std::string& why);

  std::string dir_;
  etcd_mode mode_;
  etcd_credentials credentials_;
  std::string root_password_;
  pid_t pid_ = -1;
  std::uint16_t client_port_ = 0;
  std::uint16_t peer_port_ = 0;
};

} // namespace svc::test
