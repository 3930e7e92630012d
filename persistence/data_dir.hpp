#pragma once
// The files of a data directory besides LMDB: the process lock, the admin
// token (mode 0600) and `svcd.json` (where a running svcd listens).

#include <optional>
#include <string>

namespace svc::persistence {

/// Holds `DIR/lock` (flock) so two servers never share a data directory.
class data_dir_lock {
public:
  /// Creates `dir` if needed and locks it; `error` set if it cannot.
  data_dir_lock(const std::string& dir, std::string& error);
  ~data_dir_lock();
  data_dir_lock(const data_dir_lock&) = delete;
  data_dir_lock& operator=(const data_dir_lock&) = delete;

private:
  int fd_ = -1;
};

/// The admin token of `dir`, creating it (64 hex, mode 0600) at first start.
std::optional<std::string> ensure_admin_token(const std::string& dir, std::string& error);

/// The key that signs output URLs, `DIR/url.secret` (64 hex, mode 0600),
/// created at first start; URLs stay valid across restarts.
std::optional<std::string> ensure_url_secret(const std::string& dir, std::string& error);

/// Reads `DIR/admin.token`; nullopt if missing.
std::optional<std::string> read_admin_token(const std::string& dir);

/// Writes `content` to `path` atomically (temp file, fsync, rename) with `mode`.
bool write_file_atomically(const std::string& path, const std::string& content, unsigned mode, std::string& error);

/// Reads a whole small file; nullopt if it cannot.
std::optional<std::string> read_file(const std::string& path);

} // namespace svc::persistence
