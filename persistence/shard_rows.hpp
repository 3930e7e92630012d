#pragma once
// A shard's rows of the store, for moving a shard between nodes: read in
// pages on the old owner, written on the new one, erased on the old one
// afterwards. A shard is one key range of each team-owned table
// (shard_keys.hpp), so a move reads and erases only its own rows; FORMAT.md,
// "Moving a shard".

#include <cstddef>
#include <string>
#include <vector>

#include "core/described.hpp"
#include "core/shard.hpp"
#include "persistence/store_tables.hpp"

namespace svc::persistence {

/// One stored row, as bytes: the unit a shard move copies.
struct shard_row {
  table from;        ///< its table
  std::string key;
  std::string value; ///< the stored bytes, unchanged
};
SVC_DESCRIBE(shard_row, (from, key, value))

/// A page of a shard's rows and where the next page starts.
struct shard_rows_page {
  std::vector<shard_row> rows;
  /// Blob names (`outputs/<job id>.<i>.png`, `files/<file id>`) that rows of
  /// this page own. An output past its expiry may be named but gone already.
  std::vector<std::string> blobs;
  std::string next; ///< opaque cursor for the next page; empty when the shard is done
};
SVC_DESCRIBE(shard_rows_page, (rows, blobs, next))

/// The rows of every team of `shard` after `cursor` ("" = from the start), in
/// one read transaction, stopping once the page holds about `max_bytes` of
/// keys+values (at least one row; the row that would pass the limit starts
/// the next page): each team-owned table's range of the shard, then the
/// `legacy_shards` rows naming the shard. An error
/// (read_result::error) when the store fails or `cursor` is not one this returned.
read_result<shard_rows_page> read_shard_rows(const tables& t, core::shard_id shard, const std::string& cursor,
                                             std::size_t max_bytes);

/// Adds `rows` to `batch` as puts (overwriting) into `shard`'s ranges: what
/// the new owner commits. Rows arrive from another node and are checked as
/// untrusted: refuses (false, `why`, nothing added) a row of a store-wide
/// table other than `legacy_shards`, a `legacy_shards` row naming another
/// shard, a table number out of range, a key LMDB cannot store behind its
/// shard byte, or a value without the format byte.
bool put_shard_rows(write_batch& batch, core::shard_id shard, const std::vector<shard_row>& rows, std::string& why);

/// Adds to `blobs` the names of the blobs `row` owns (a succeeded job's
/// outputs, an upload's bytes): the only blobs a move may bring along with it.
void add_blobs_of(const shard_row& row, std::vector<std::string>& blobs);

/// Adds to `batch` the erasure of every row of `shard` (the old owner's
/// cleanup after a move) and returns how many rows; an error (and nothing
/// added) when the store fails. Also lists the shard's blobs in `blobs`. One
/// batch holds the whole shard: for a large one, erase the rows of
/// `read_shard_rows` pages instead, committing each before reading the next.
read_result<std::size_t> erase_shard_rows(const tables& t, core::shard_id shard, write_batch& batch,
                                          std::vector<std::string>& blobs);

} // namespace svc::persistence
