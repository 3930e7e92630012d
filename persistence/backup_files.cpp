#include "persistence/backup_files.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace svc::persistence {
namespace fs = std::filesystem;

namespace {

// `from`, a regular file and not a link, to the new file `to` (mode 0600),
// fsynced before it counts as copied.
status copy_file_synced(const fs::path& from, const fs::path& to) {
  int in = ::open(from.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (in < 0)
    return {errno == ELOOP ? from.string() + " is a symbolic link: a backup holds none"
                           : "cannot read " + from.string() + ": " + std::strerror(errno)};
  struct stat st{};
  if (::fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(in);
    return {from.string() + " is not a regular file"};
  }
  int fd = ::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    auto error = errno;
    ::close(in);
    return {"cannot create " + to.string() + ": " + std::strerror(error)};
  }
  char buffer[1 << 16];
  bool ok = true;
  int error = 0;
  for (;;) {
    auto got = ::read(in, buffer, sizeof buffer);
    if (got <= 0) {
      ok = got == 0;
      error = errno;
      break;
    }
    for (ssize_t done = 0; ok && done < got;) {
      auto n = ::write(fd, buffer + done, static_cast<std::size_t>(got - done));
      ok = n > 0;
      error = errno;
      done += ok ? n : 0;
    }
    if (!ok)
      break;
  }
  if (ok && ::fsync(fd) != 0) {
    ok = false;
    error = errno;
  }
  ::close(fd);
  ::close(in);
  if (!ok)
    return {"cannot copy " + from.string() + " to " + to.string(), error == ENOSPC || error == EDQUOT};
  return {};
}

status make_private_dir(const fs::path& dir) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    return {"cannot create " + dir.string() + ": " + std::strerror(errno)};
  return {};
}

status copy_secrets(const std::string& from_dir, const std::string& to_dir) {
  for (auto name : {"url.secret", "admin.token"})
    if (auto st = copy_file_synced(fs::path{from_dir} / name, fs::path{to_dir} / name); !st.ok())
      return st;
  return {};
}

status copy_blobs(const std::string& from_dir, const std::string& to_dir, std::size_t& blobs) {
  blobs = 0;
  const fs::path from_blobs = fs::path{from_dir} / "blobs", to_blobs = fs::path{to_dir} / "blobs";
  if (auto st = make_private_dir(to_blobs); !st.ok())
    return st;
  std::error_code ec;
  auto folder = fs::symlink_status(from_blobs, ec).type();
  if (folder == fs::file_type::not_found)
    return {};
  if (folder != fs::file_type::directory)
    return {from_blobs.string() + " is not a folder (a link is refused: a backup holds none)"};
  for (auto it = fs::recursive_directory_iterator{from_blobs, ec}; !ec && it != fs::recursive_directory_iterator{};
       it.increment(ec)) {
    auto target = to_blobs / fs::relative(it->path(), from_blobs);
    auto type = it->symlink_status(ec).type();
    if (ec)
      break;
    if (type == fs::file_type::directory) {
      if (auto st = make_private_dir(target); !st.ok())
        return st;
      continue;
    }
    // A blob being written is a temp file until renamed: not a blob yet.
    if (it->path().filename().string().find(".tmp-") != std::string::npos)
      continue;
    if (type == fs::file_type::symlink)
      return {it->path().string() + " is a symbolic link: a backup holds none"};
    if (type != fs::file_type::regular)
      return {it->path().string() + " is not a regular file"};
    if (auto st = copy_file_synced(it->path(), target); !st.ok()) {
      // Expired and removed since the listing: the copied store no longer names it either.
      if (!fs::exists(fs::symlink_status(it->path(), ec)))
        continue;
      return st;
    }
    ++blobs;
  }
  if (ec)
    return {"cannot list " + from_blobs.string() + ": " + ec.message()};
  return {};
}

// Opens the store in `dir` and reads every table through, in a child
// process: LMDB trusts its file's page pointers, so a damaged or hostile one
// may crash its reader, and only the child dies of it. (svcctl, the caller,
// runs one thread, so the child may use the allocator freely.)
status check_store(const std::string& dir) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0)
    return {std::string{"cannot check the store: pipe: "} + std::strerror(errno)};
  pid_t child = ::fork();
  if (child < 0) {
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    return {std::string{"cannot check the store: fork: "} + std::strerror(errno)};
  }
  if (child == 0) {
    ::close(pipe_fds[0]);
    std::string error;
    auto env = environment::open(dir, error);
    for (std::size_t t = 0; env && t < table_count && error.empty(); ++t) {
      auto st = env->scan(static_cast<table>(t), {}, [](std::string_view, std::string_view) { return true; });
      if (!st.ok())
        error = "reading " + std::string{table_name(static_cast<table>(t))} + ": " + st.message;
    }
    auto written = ::write(pipe_fds[1], error.data(), std::min<std::size_t>(error.size(), 4096));
    (void) written;
    ::_exit(error.empty() ? 0 : 1);
  }
  ::close(pipe_fds[1]);
  // Pages that point in a circle make a reader walk for ever: a minute, and
  // a second more per 50 MB of file, is plenty for a sound one.
  struct stat file{};
  ::stat((dir + "/data.mdb").c_str(), &file);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds{60 + file.st_size / (50 << 20)};
  std::string message;
  char buffer[4096];
  bool timed_out = false;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd readable{pipe_fds[0], POLLIN, 0};
    int ready = left.count() > 0 ? ::poll(&readable, 1, static_cast<int>(left.count())) : 0;
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready <= 0) {
      timed_out = true;
      ::kill(child, SIGKILL);
      break;
    }
    auto n = ::read(pipe_fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    message.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(pipe_fds[0]);
  int wstatus = 0;
  while (::waitpid(child, &wstatus, 0) < 0 && errno == EINTR) {
  }
  if (timed_out)
    return {"the backup's data.mdb is damaged: reading it through did not end in time"};
  if (WIFSIGNALED(wstatus))
    return {"the backup's data.mdb is damaged: reading it killed the reader (signal "
            + std::to_string(WTERMSIG(wstatus)) + ")"};
  if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0)
    return {"the backup's data.mdb does not open or read: " + message};
  return {};
}

// Removes everything in `dir`, leaving it empty.
void empty_dir(const std::string& dir) {
  std::error_code ec;
  for (auto& entry : fs::directory_iterator{dir, ec})
    fs::remove_all(entry.path(), ec);
}

} // namespace

status copy_side_files(const std::string& from_dir, const std::string& to_dir, std::size_t& blobs) {
  blobs = 0;
  if (auto st = copy_secrets(from_dir, to_dir); !st.ok())
    return st;
  return copy_blobs(from_dir, to_dir, blobs);
}

status restore_data_dir(const std::string& backup_dir, const std::string& data_dir, restored_secrets secrets,
                        std::size_t& blobs) {
  blobs = 0;
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(fs::path{backup_dir} / "data.mdb", ec)))
    return {backup_dir + " holds no data.mdb: not a backup"};
  if (fs::exists(data_dir, ec) && !(fs::is_directory(data_dir, ec) && fs::is_empty(data_dir, ec)))
    return {data_dir + " is not empty: restore only into a new or empty directory"};
  if (auto st = make_private_dir(data_dir); !st.ok())
    return st;
  auto st = copy_file_synced(fs::path{backup_dir} / "data.mdb", fs::path{data_dir} / "data.mdb");
  if (st.ok())
    st = check_store(data_dir);
  if (st.ok())
    st = copy_blobs(backup_dir, data_dir, blobs);
  if (st.ok() && secrets == restored_secrets::adopted)
    st = copy_secrets(backup_dir, data_dir);
  if (!st.ok()) {
    empty_dir(data_dir);
    blobs = 0;
  }
  return st;
}

} // namespace svc::persistence
