#pragma once
// The upgrade of a format-1 store, whose keys carry no shard, to format 2,
// where each team-owned row is stored behind its team's shard (shard_keys.hpp).
// Used by `environment::open` only (LMDB handles never leave this folder).

#include <array>
#include <cstddef>
#include <string>

#include <lmdb.h>

#include "persistence/table_ids.hpp"

namespace svc::persistence {

/// What an upgrade did.
struct upgrade_counts {
  std::size_t rows = 0;          ///< team-owned rows placed in their shard
  std::size_t legacy_rows = 0;   ///< rows of ids and keys minted before sharding, placed by `legacy_shards`
  std::size_t teamless_rows = 0; ///< rows whose team could not be told, kept in the shard their key names
};

/// Rewrites every team-owned table of the format-1 store open in the write
/// transaction `txn` (which must be the store's only writer), using the
/// scratch table `scratch` (emptied and dropped). Empty on success, else why
/// it failed (then the caller aborts `txn` and the store is unchanged).
std::string upgrade_from_format_1(MDB_txn* txn, const std::array<MDB_dbi, table_count>& dbis, MDB_dbi scratch,
                                  upgrade_counts& counts);

} // namespace svc::persistence
