#pragma once
// Orphan blobs: a crash between a blob's fsync and the commit of the record
// that names it (a job's `succeeded` row, an upload's `files` row), or
// between job retention's commit and its file deletion, leaves bytes that no
// record names. Nothing would ever read or delete them, so svcd removes them
// at start, before any actor can write a blob.

#include <cstddef>

#include "core/clock.hpp"
#include "persistence/blob_store.hpp"
#include "persistence/store_tables.hpp"

namespace svc::persistence {

/// What a clean-up did.
struct orphan_sweep {
  std::size_t removed = 0;    ///< blobs no record names, deleted
  std::size_t kept = 0;       ///< blobs a record names (or may still name)
  std::size_t unreadable = 0; ///< kept because the store failed to say
  std::size_t failed = 0;     ///< orphans whose deletion failed (logged)
};

/// Deletes the blobs of `blobs` that no record names:
/// - `outputs/<job id>.<index>.<png|mp4>` unless its job is live (not
///   terminal: it may render again, writing the same names) or succeeded
///   with that output in its record;
/// - `files/<file id>` without a `files` row.
/// A blob written at or after `started` is kept (it may belong to work of
/// this process), and so is one whose record the store failed to read, and
/// any name Svc does not write.
orphan_sweep remove_orphan_blobs(const tables& t, file_blob_store& blobs, core::time_point started);

} // namespace svc::persistence
