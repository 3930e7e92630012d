#include "persistence/outbox.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/crypto.hpp"
#include "core/ids.hpp"
#include "persistence/data_dir.hpp"
#include "persistence/os_error.hpp"

namespace svc::persistence {
namespace {

// Creates `path` (mode 0700) unless it exists as a folder.
bool make_folder(const std::string& path, std::string& error) {
  if (::mkdir(path.c_str(), 0700) == 0)
    return true;
  struct stat st {};
  if (errno == EEXIST && ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    return true;
  error = os_error("mkdir " + path);
  return false;
}

// Makes a rename inside `folder` durable.
bool fsync_folder(const std::string& folder, std::string& error) {
  int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    error = os_error("open " + folder);
    return false;
  }
  bool ok = ::fsync(fd) == 0;
  if (!ok)
    error = os_error("fsync " + folder);
  ::close(fd);
  return ok;
}

} // namespace

outbox_sender::outbox_sender(std::string data_dir, std::shared_ptr<const core::clock> clock)
  : folder_(std::move(data_dir) + "/outbox"), clock_(std::move(clock)) {}

std::string outbox_sender::send(const core::mail_message& m) {
  std::string error;
  if (!make_folder(folder_, error))
    return error;
  auto now = clock_->now();
  auto text = core::format_rfc5322(m, now, core::make_ulid(now));
  // The random part keeps names unique across threads and restarts within one millisecond.
  auto path = folder_ + "/" + std::to_string(core::to_unix_ms(now)) + "-" + core::random_hex(8) + ".eml";
  if (!write_file_atomically(path, text, 0600, error) || !fsync_folder(folder_, error))
    return error;
  return {};
}

} // namespace svc::persistence
