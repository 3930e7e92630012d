#pragma once
// A shard's contents summed up, so the two nodes of a move can compare their
// copies before the old owner lets its own go: the rows of read_shard_rows,
// in their order, and the blobs they own that are present, bytes and all.
// Equal digests mean the new owner committed every row and blob the old one
// holds; FORMAT.md, "Moving a shard".

#include <cstdint>
#include <string>

#include "core/shard.hpp"
#include "persistence/blob_store.hpp"
#include "persistence/store_tables.hpp"

namespace svc::persistence {

struct shard_digest {
  uint64_t rows = 0;  ///< rows of the shard
  uint64_t blobs = 0; ///< blobs the rows own that are present
  uint64_t bytes = 0; ///< of the rows' keys and values and of those blobs
  std::string sha256; ///< lowercase hex over each row (table, key, value), then each blob (name, bytes)
};

/// Reads every row of `shard` (pages of read_shard_rows, each its own read
/// transaction: the shard must not change meanwhile, as during a move) and
/// its blobs; an error when the store or a blob read fails.
read_result<shard_digest> digest_shard(const tables& t, const blob_store& blobs, core::shard_id shard);

} // namespace svc::persistence
