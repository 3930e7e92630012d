#include "persistence/data_dir.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>

#include <cstdio>
#include <unistd.h>

#include "core/crypto.hpp"
#include "persistence/os_error.hpp"

namespace svc::persistence {
namespace {

} // namespace

data_dir_lock::data_dir_lock(const std::string& dir, std::string& error) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    error = os_error("mkdir " + dir);
    return;
  }
  fd_ = ::open((dir + "/lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd_ < 0) {
    error = os_error("open " + dir + "/lock");
    return;
  }
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    error = "data directory " + dir + " is in use by another svcd";
    ::close(fd_);
    fd_ = -1;
  }
}

data_dir_lock::~data_dir_lock() {
  if (fd_ >= 0)
    ::close(fd_);
}

bool write_file_atomically(const std::string& path, const std::string& content, unsigned mode, std::string& error) {
  auto tmp = path + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) {
    error = os_error("open " + tmp);
    return false;
  }
  ::fchmod(fd, mode);
  std::size_t done = 0;
  while (done < content.size()) {
    auto n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      error = os_error("write " + tmp);
      ::close(fd);
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    error = os_error("fsync " + tmp);
    return false;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    error = os_error("rename " + tmp);
    return false;
  }
  return true;
}

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  if (!in)
    return std::nullopt;
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::optional<std::string> read_admin_token(const std::string& dir) {
  auto text = read_file(dir + "/admin.token");
  if (!text)
    return std::nullopt;
  while (!text->empty() && (text->back() == '\n' || text->back() == '\r' || text->back() == ' '))
    text->pop_back();
  return text;
}

namespace {

// A 64-hex secret kept in `path` (mode 0600), made at first use.
std::optional<std::string> ensure_secret_file(const std::string& path, std::string& error) {
  // A secret others can read is no longer a secret: refuse to start rather
  // than serve with it (and rather than silently chmod what an operator set).
  struct stat st{};
  if (::stat(path.c_str(), &st) == 0 && (st.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    error = path + " is readable or writable by group or others (mode " + mode + "); run: chmod 600 " + path;
    return std::nullopt;
  }
  if (auto existing = read_file(path)) {
    auto text = existing->substr(0, existing->find_first_of("\r\n"));
    if (text.size() == 64)
      return text;
  }
  auto token = core::random_hex(32);
  if (!write_file_atomically(path, token + "\n", 0600, error))
    return std::nullopt;
  return token;
}

} // namespace

std::optional<std::string> ensure_admin_token(const std::string& dir, std::string& error) {
  return ensure_secret_file(dir + "/admin.token", error);
}

std::optional<std::string> ensure_url_secret(const std::string& dir, std::string& error) {
  return ensure_secret_file(dir + "/url.secret", error);
}

} // namespace svc::persistence
