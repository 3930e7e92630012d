#pragma once
// Which team a stored row belongs to. Keys carry no shard yet, so a shard's
// rows are found by asking this of every row: from the key where it starts
// with the team id, else from the record the row is or names.

#include <string>
#include <string_view>

#include "persistence/environment.hpp"

namespace svc::persistence {

/// Whether `t` holds facts of the whole store rather than of teams (the
/// format version, the LoRA catalogue, the node's mail queue): never moved with a shard.
bool store_wide(table t);

/// The id of the team that owns the row `key -> value` of `from`, looking up
/// in `s` the record it names where the row itself does not say; absent for
/// rows of a store-wide table and rows whose team cannot be told (the record
/// they name is gone or damaged); the store's error when a lookup fails.
read_result<std::string> team_of_row(const snapshot& s, table from, std::string_view key, std::string_view value);

} // namespace svc::persistence
