#pragma once
// Which team a stored row of a format-1 store belongs to: from the key where
// it starts with the team id, else from the record the row is or names. The
// upgrade to format 2 asks it of every row to place the row in its team's
// shard (store_upgrade.hpp), never trusting the shard an id names.

#include <string>
#include <string_view>

#include "persistence/environment.hpp"
#include "persistence/shard_keys.hpp"

namespace svc::persistence {

/// The id of the team that owns the row `key -> value` of `from`, looking up
/// in `s` the record it names where the row itself does not say; absent for
/// rows of a store-wide table and rows whose team cannot be told (the record
/// they name is gone or damaged); the store's error when a lookup fails.
read_result<std::string> team_of_row(const snapshot& s, table from, std::string_view key, std::string_view value);

} // namespace svc::persistence
