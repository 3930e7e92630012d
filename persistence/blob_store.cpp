#include "persistence/blob_store.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ids.hpp"
#include "persistence/os_error.hpp"

namespace svc::persistence {
namespace {

// A failed write of a blob, read from errno: out of room on a full disk
// (ENOSPC, EDQUOT, or EFBIG past a file size limit), so the caller can say so.
status write_failure(const std::string& what) {
  bool no_room = errno == ENOSPC || errno == EDQUOT || errno == EFBIG;
  return {os_error(what), no_room};
}

// Creates every folder of `path` up to its last '/'.
bool make_parents(const std::string& path) {
  for (auto pos = path.find('/', 1); pos != std::string::npos; pos = path.find('/', pos + 1))
    if (::mkdir(path.substr(0, pos).c_str(), 0700) != 0 && errno != EEXIST)
      return false;
  return true;
}

bool fsync_path(const std::string& path, int flags) {
  int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0)
    return false;
  bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

// A blob file open read-only; the descriptor keeps an unlinked file's bytes.
class open_file final : public blob_file {
public:
  open_file(int fd, uint64_t size) : fd_{fd}, size_{size} {}
  ~open_file() override { ::close(fd_); }
  uint64_t size() const override { return size_; }

  std::optional<std::string> read(uint64_t offset, uint64_t length) const override {
    if (offset >= size_)
      return std::string{};
    length = std::min(length, size_ - offset);
    std::string out(length, '\0');
    uint64_t done = 0;
    while (done < length) {
      auto n = ::pread(fd_, out.data() + done, length - done, static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return std::nullopt;
      if (n == 0)
        break;
      done += static_cast<uint64_t>(n);
    }
    out.resize(done);
    return out;
  }

private:
  int fd_;
  uint64_t size_;
};

// A blob's temp file open for writing; see blob_writer. Positional I/O
// (pwrite/pread), so a muxer's seeks cost no system call.
class file_blob_writer final : public blob_writer {
public:
  file_blob_writer(int fd, std::string tmp, std::string path) : fd_{fd}, tmp_{std::move(tmp)}, path_{std::move(path)} {}

  ~file_blob_writer() override {
    if (fd_ >= 0)
      ::close(fd_);
    if (!committed_)
      ::unlink(tmp_.c_str());
  }

  bool write_at(uint64_t offset, const char* data, std::size_t size, std::string& error) override {
    if (fd_ < 0 && failure_.ok())
      failure_ = {"write " + tmp_ + ": the blob writer is spent"};
    std::size_t done = 0;
    while (failure_.ok() && done < size) {
      auto n = ::pwrite(fd_, data + done, size - done, static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR)
        continue;
      if (n == 0)
        errno = ENOSPC; // no progress and no error: the disk took nothing
      if (n <= 0)
        failure_ = write_failure("write " + tmp_);
      else
        done += static_cast<std::size_t>(n);
    }
    if (!failure_.ok()) {
      error = failure_.message;
      return false;
    }
    size_ = std::max(size_, offset + size);
    return true;
  }

  int64_t read_at(uint64_t offset, char* data, std::size_t size) const override {
    std::size_t done = 0;
    while (fd_ >= 0 && done < size) {
      auto n = ::pread(fd_, data + done, size - done, static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -1;
      if (n == 0)
        break;
      done += static_cast<std::size_t>(n);
    }
    return fd_ >= 0 ? static_cast<int64_t>(done) : -1;
  }

  uint64_t size() const override { return size_; }
  const status& failure() const override { return failure_; }

  // Every failure removes the temp file (the destructor does), so a full disk
  // leaves no partial blob.
  status commit() override {
    if (!failure_.ok() || fd_ < 0)
      return failure_.ok() ? status{"commit " + tmp_ + ": the blob writer is spent"} : failure_;
    // A disk that delays allocation reports a full disk at fsync (or close).
    auto err = ::fsync(fd_) == 0 ? status{} : write_failure("fsync " + tmp_);
    if (::close(fd_) != 0 && err.ok())
      err = write_failure("close " + tmp_);
    fd_ = -1;
    if (!err.ok())
      return err;
    if (::rename(tmp_.c_str(), path_.c_str()) != 0)
      return write_failure("rename " + tmp_);
    committed_ = true;
    // The rename is durable only once its folder is; a blob whose name may not
    // survive a crash is no stored blob, so it goes again.
    if (!fsync_path(path_.substr(0, path_.rfind('/')), O_RDONLY | O_DIRECTORY)) {
      auto err = write_failure("fsync folder of " + path_);
      ::unlink(path_.c_str());
      return err;
    }
    return {};
  }

private:
  int fd_;
  std::string tmp_, path_;
  uint64_t size_ = 0;
  status failure_;
  bool committed_ = false;
};

} // namespace

std::string remove_all(blob_store& blobs, const std::vector<std::string>& keys) {
  std::string first_failure;
  for (auto& k : keys)
    if (auto st = blobs.remove(k); !st.ok() && first_failure.empty())
      first_failure = k + ": " + st.message;
  return first_failure;
}

bool valid_blob_key(std::string_view key) {
  std::size_t segments = 0;
  while (true) {
    auto slash = key.find('/');
    auto seg = key.substr(0, slash);
    if (seg.empty() || seg.size() > 128 || seg == "." || seg == ".." || ++segments > 4)
      return false;
    for (char c : seg)
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'
            || c == '.'))
        return false;
    if (slash == std::string_view::npos)
      return true;
    key.remove_prefix(slash + 1);
  }
}

file_blob_store::file_blob_store(std::string root) : root_{std::move(root)} {
  ::mkdir(root_.c_str(), 0700);
  remove_abandoned_temp_files();
}

// A crash between writing a temp file and renaming it leaves the temp file;
// no write is in progress while the store is being built, so any left is garbage.
void file_blob_store::remove_abandoned_temp_files() {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<fs::path> abandoned;
  for (auto it = fs::recursive_directory_iterator{root_, ec}; !ec && it != fs::recursive_directory_iterator{};
       it.increment(ec))
    if (it->is_regular_file(ec) && it->path().filename().string().find(".tmp-") != std::string::npos)
      abandoned.push_back(it->path());
  for (auto& p : abandoned)
    fs::remove(p, ec);
}

status file_blob_store::put(std::string_view key, std::string_view bytes) {
  std::unique_ptr<blob_writer> writer;
  if (auto st = create(key, writer); !st.ok())
    return st;
  std::string ignored; // the writer keeps the failure with its out_of_room
  if (!writer->write_at(0, bytes.data(), bytes.size(), ignored))
    return writer->failure();
  return writer->commit();
}

status file_blob_store::create(std::string_view key, std::unique_ptr<blob_writer>& out) {
  if (!valid_blob_key(key))
    return {"invalid blob key"};
  auto path = path_of(key);
  if (!make_parents(path))
    return write_failure("mkdir for " + path);
  // A unique temp name: concurrent writers of one key never share a temp file.
  auto tmp = path + ".tmp-" + core::make_ulid();
  int fd = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return write_failure("open " + tmp);
  out = std::make_unique<file_blob_writer>(fd, std::move(tmp), std::move(path));
  return {};
}

std::vector<listed_blob> file_blob_store::list(std::string_view folder) const {
  std::vector<listed_blob> out;
  if (!valid_blob_key(folder))
    return out;
  auto path = path_of(folder);
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr)
    return out;
  while (auto* entry = ::readdir(dir)) {
    std::string name = entry->d_name;
    if (name.find(".tmp-") != std::string::npos)
      continue;
    struct stat st {};
    if (::fstatat(::dirfd(dir), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
      continue;
    auto written = core::time_point{std::chrono::duration_cast<core::time_point::duration>(
      std::chrono::seconds{st.st_mtim.tv_sec} + std::chrono::nanoseconds{st.st_mtim.tv_nsec})};
    out.push_back({std::string{folder} + "/" + name, written});
  }
  ::closedir(dir);
  return out;
}

blob_usage file_blob_store::usage() const {
  namespace fs = std::filesystem;
  blob_usage found;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator{root_, ec}; !ec && it != fs::recursive_directory_iterator{};
       it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->path().filename().string().find(".tmp-") != std::string::npos)
      continue;
    auto size = it->file_size(ec);
    if (ec) // gone since listed (an expiry removal): not held
      continue;
    found.bytes += size;
    found.count += 1;
  }
  return found;
}

std::optional<std::string> file_blob_store::get(std::string_view key) const {
  auto n = size(key);
  return n ? read_range(key, 0, *n) : std::nullopt;
}

std::optional<uint64_t> file_blob_store::size(std::string_view key) const {
  struct stat st {};
  if (!valid_blob_key(key) || ::stat(path_of(key).c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return std::nullopt;
  return static_cast<uint64_t>(st.st_size);
}

std::optional<std::string> file_blob_store::read_range(std::string_view key, uint64_t offset, uint64_t length) const {
  auto file = open(key);
  return file ? file->read(offset, length) : std::nullopt;
}

std::unique_ptr<blob_file> file_blob_store::open(std::string_view key) const {
  if (!valid_blob_key(key))
    return nullptr;
  int fd = ::open(path_of(key).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return nullptr;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return nullptr;
  }
  return std::make_unique<open_file>(fd, static_cast<uint64_t>(st.st_size));
}

status file_blob_store::remove(std::string_view key) {
  if (!valid_blob_key(key))
    return {"invalid blob key"};
  if (::unlink(path_of(key).c_str()) != 0 && errno != ENOENT)
    return {os_error("unlink " + path_of(key))};
  return {};
}

} // namespace svc::persistence
