#include "persistence/backup_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace svc::persistence {
namespace fs = std::filesystem;

namespace {

// `from` to the new file `to` (mode 0600), fsynced before it counts as copied.
status copy_file_synced(const fs::path& from, const fs::path& to) {
  std::ifstream in{from, std::ios::binary};
  if (!in)
    return {"cannot read " + from.string()};
  int fd = ::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return {"cannot create " + to.string() + ": " + std::strerror(errno)};
  char buffer[1 << 16];
  bool ok = true;
  while (ok) {
    in.read(buffer, sizeof buffer);
    std::streamsize got = in.gcount(), done = 0;
    while (ok && done < got) {
      auto n = ::write(fd, buffer + done, static_cast<std::size_t>(got - done));
      ok = n > 0;
      done += ok ? n : 0;
    }
    if (!in)
      break;
  }
  ok = ok && in.eof() && ::fsync(fd) == 0;
  auto out_of_room = errno == ENOSPC || errno == EDQUOT;
  ::close(fd);
  if (!ok)
    return {"cannot copy " + from.string() + " to " + to.string(), out_of_room};
  return {};
}

status make_private_dir(const fs::path& dir) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    return {"cannot create " + dir.string() + ": " + std::strerror(errno)};
  return {};
}

} // namespace

status copy_side_files(const std::string& from_dir, const std::string& to_dir, std::size_t& blobs) {
  blobs = 0;
  for (auto name : {"url.secret", "admin.token"})
    if (auto st = copy_file_synced(fs::path{from_dir} / name, fs::path{to_dir} / name); !st.ok())
      return st;
  const fs::path from_blobs = fs::path{from_dir} / "blobs", to_blobs = fs::path{to_dir} / "blobs";
  if (auto st = make_private_dir(to_blobs); !st.ok())
    return st;
  std::error_code ec;
  if (!fs::exists(from_blobs, ec))
    return {};
  for (auto it = fs::recursive_directory_iterator{from_blobs, ec}; !ec && it != fs::recursive_directory_iterator{};
       it.increment(ec)) {
    auto target = to_blobs / fs::relative(it->path(), from_blobs);
    if (it->is_directory(ec)) {
      if (auto st = make_private_dir(target); !st.ok())
        return st;
      continue;
    }
    // A blob being written is a temp file until renamed: not a blob yet.
    if (!it->is_regular_file(ec) || it->path().filename().string().find(".tmp-") != std::string::npos)
      continue;
    if (auto st = copy_file_synced(it->path(), target); !st.ok()) {
      // Expired and removed since the listing: the copied store no longer names it either.
      if (!fs::exists(it->path()))
        continue;
      return st;
    }
    ++blobs;
  }
  if (ec)
    return {"cannot list " + from_blobs.string() + ": " + ec.message()};
  return {};
}

status restore_data_dir(const std::string& backup_dir, const std::string& data_dir, std::size_t& blobs) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::path{backup_dir} / "data.mdb", ec))
    return {backup_dir + " holds no data.mdb: not a backup"};
  if (fs::exists(data_dir, ec) && !(fs::is_directory(data_dir, ec) && fs::is_empty(data_dir, ec)))
    return {data_dir + " is not empty: restore only into a new or empty directory"};
  if (auto st = make_private_dir(data_dir); !st.ok())
    return st;
  if (auto st = copy_file_synced(fs::path{backup_dir} / "data.mdb", fs::path{data_dir} / "data.mdb"); !st.ok())
    return st;
  return copy_side_files(backup_dir, data_dir, blobs);
}

} // namespace svc::persistence
