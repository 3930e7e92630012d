#include "persistence/map_room.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>

namespace svc::persistence::map_room {
namespace {

// LMDB's own table of free pages: key a transaction id, value a list of page
// numbers whose first element is their count (lmdb.h documents FREE_DBI as 0).
constexpr MDB_dbi freelist_dbi = 0;

constexpr uint64_t eight_mib = uint64_t{8} << 20;

} // namespace

uint64_t reserve_pages(uint64_t map_pages, uint64_t page_size) {
  // A sweep or retention round erases at most a few thousand rows; their
  // copy-on-write pages and the freelist's growth fit in 8 MiB even when each
  // row sits on a page of its own. The 2% keeps runs of free pages long enough
  // for large values (overflow pages must be contiguous) in a big, fragmented map.
  return std::min(std::max(map_pages / 50, eight_mib / page_size), map_pages / 10);
}

uint64_t pledged_pages(uint64_t open_work, uint64_t page_size) {
  // A job's end rewrites its row (prompt, outputs and URLs: up to a few KB),
  // adds its event (overflow pages of its own when past half a page), its
  // credit entry, usage and expiry rows; a delivery adds up to one attempt
  // row per retry, each with 1 KB of the receiver's answer. 16 KiB each
  // covers that with B-tree splits; the reserve's half absorbs the rest.
  constexpr uint64_t bytes_per_open_work = 16 * 1024;
  return open_work * ((bytes_per_open_work + page_size - 1) / page_size);
}

uint64_t disk_reserve_pages(uint64_t reserve_pages, uint64_t page_size) {
  return std::min(reserve_pages, eight_mib / page_size);
}

int count_pages(MDB_env* env, MDB_txn* txn, page_counts& out) {
  MDB_envinfo info{};
  int rc = mdb_env_info(env, &info);
  if (rc != MDB_SUCCESS)
    return rc;
  MDB_cursor* cur = nullptr;
  rc = mdb_cursor_open(txn, freelist_dbi, &cur);
  if (rc != MDB_SUCCESS)
    return rc;
  uint64_t free_pages = 0;
  MDB_val k{}, v{};
  for (rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); rc == MDB_SUCCESS; rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
    std::size_t count = 0;
    if (v.mv_size < sizeof count)
      continue;
    std::memcpy(&count, v.mv_data, sizeof count);
    free_pages += std::min<uint64_t>(count, v.mv_size / sizeof count - 1);
  }
  mdb_cursor_close(cur);
  if (rc != MDB_NOTFOUND)
    return rc;
  out.end = static_cast<uint64_t>(info.me_last_pgno) + 1;
  out.used = out.end > free_pages ? out.end - free_pages : 0;
  return MDB_SUCCESS;
}

uint64_t tree_pages(MDB_txn* txn, const MDB_dbi* dbis, std::size_t count) {
  uint64_t pages = 0;
  for (std::size_t i = 0; i < count; ++i) {
    MDB_stat st{};
    if (mdb_stat(txn, dbis[i], &st) == MDB_SUCCESS)
      pages += st.ms_branch_pages + st.ms_leaf_pages + st.ms_overflow_pages;
  }
  return pages;
}

int preallocate(int fd, uint64_t bytes) {
  struct stat st{};
  if (::fstat(fd, &st) != 0)
    return errno;
  if (static_cast<uint64_t>(st.st_size) >= bytes)
    return 0;
  // Mode 0 also moves the file's end, so the kernel checks the file size
  // limit here, before LMDB writes anything (LMDB reports a write that ends
  // short as EIO, which would hide a full disk).
  if (::fallocate(fd, 0, st.st_size, static_cast<off_t>(bytes - static_cast<uint64_t>(st.st_size))) == 0)
    return 0;
  return errno == EOPNOTSUPP ? 0 : errno;
}

bool is_out_of_room(int rc) { return rc == MDB_MAP_FULL || rc == ENOSPC || rc == EDQUOT || rc == EFBIG; }

} // namespace svc::persistence::map_room
