#pragma once
// Room for the LMDB store, in the map and on the disk: how many pages the
// store uses, how many a write adds, the reserve kept for writes that do not
// grow the store, and the disk blocks allocated ahead of the data file's end.
// Used by `environment` only (LMDB handles never leave this folder).
//
// "Used" counts what the newest snapshot needs: the last page number + 1,
// minus the pages LMDB's freelist holds for reuse. A write is measured inside
// its own transaction as the growth of every table's tree (branch, leaf and
// overflow pages), so deletes and same-size rewrites measure zero or less.

#include <cstddef>
#include <cstdint>

#include <lmdb.h>

namespace svc::persistence::map_room {

/// Pages kept free for writes that do not grow the store (the sweeper, job
/// retention, deletes): 2% of the map, at least 8 MiB, but at most a tenth of
/// a small map (under 80 MiB, as tests use), so most of it stays writable.
uint64_t reserve_pages(uint64_t map_pages, uint64_t page_size);

/// Pages new work leaves free, past the reserve, for each piece of work the
/// store has accepted and not finished (a live job, an event not yet fanned
/// out, a webhook delivery not yet done): what finishing it writes (a job's
/// settlement and event, a delivery's attempts), so a store that refuses new
/// work still lets every accepted piece end.
uint64_t pledged_pages(uint64_t open_work, uint64_t page_size);

/// Of the reserve, the part also held as allocated disk blocks past the data
/// file's last page: what one delete round can need (at most 8 MiB).
uint64_t disk_reserve_pages(uint64_t reserve_pages, uint64_t page_size);

/// The pages of the newest snapshot.
struct page_counts {
  uint64_t end = 0;  ///< last page number + 1: how far into the file it reaches
  uint64_t used = 0; ///< `end` minus the pages on LMDB's freelist
};

/// Counts the pages of the newest snapshot inside the read-only `txn` (LMDB
/// walks its freelist only in read-only transactions). An LMDB error code, or
/// MDB_SUCCESS with `out` set.
int count_pages(MDB_env* env, MDB_txn* txn, page_counts& out);

/// Pages of the trees of `dbis` as the write transaction `txn` sees them now;
/// the difference of two calls is what the changes between them add.
uint64_t tree_pages(MDB_txn* txn, const MDB_dbi* dbis, std::size_t count);

/// Allocates disk blocks so the file `fd` is at least `bytes` long: 0, or
/// the errno (ENOSPC on a full disk, EFBIG past a file size limit). A file
/// system that cannot preallocate counts as success: LMDB then finds out
/// itself when it writes.
int preallocate(int fd, uint64_t bytes);

/// Whether an LMDB or OS error means the map or the disk is out of room
/// (MDB_MAP_FULL, ENOSPC, EDQUOT, or EFBIG under a file size limit).
bool is_out_of_room(int rc);

} // namespace svc::persistence::map_room
