#pragma once
// Where a team-owned row is stored. Every key of a team-owned table is stored
// behind one byte, the shard of the row's team, so one shard is one key range
// of each table: a cluster copies and erases a shard by range. Callers keep
// using the keys FORMAT.md lists; the environment adds and strips the byte.
//
// The shard comes from the key alone: the team id it starts with, or the
// shard a record id or an API key's secret names (core/shard.hpp). Ids and
// keys minted before sharding name a random shard: the store maps each of
// them to its team's shard in `legacy_shards` (written when a format-1 store
// is upgraded, and moved with its shard), which is read only while not empty.

#include <optional>
#include <string>
#include <string_view>

#include "core/shard.hpp"
#include "persistence/table_ids.hpp"

namespace svc::persistence {

/// What a table's keys are made of, as far as their shard goes.
enum class key_shape {
  team,             ///< a team id (`teams`, `balances`, `buckets`)
  team_then_rest,   ///< `team_id/...`
  record,           ///< a record id, or a key hash (`key_hashes`: `XX/<sha256>`)
  record_then_rest, ///< `record_id/...` (an endpoint's rows)
  expiry,           ///< `<ms>/<kind>/<subject>`
  store_wide,       ///< not a team's: stored without a shard byte
};

/// The part of an `owner/rest` key before its first '/' (all of a key without one).
std::string_view owner_part(std::string_view key);

/// The shape of `t`'s keys.
key_shape shape_of(table t);

/// Whether `t` holds facts of the whole store rather than of teams (the
/// format version, the LoRA catalogue, the node's mail queue, the legacy
/// shard map): stored without a shard byte, never moved with a shard as a range.
bool store_wide(table t);

/// What a key of a team-owned table names its shard by.
struct key_subject {
  bool is_team = false;  ///< a team id (always its own shard); else a record id or key hash, maybe legacy
  std::string_view text; ///< that id or hash: a `legacy_shards` key when not a team
};

/// The subject of `key` in the team-owned table `t`.
key_subject subject_of_key(table t, std::string_view key);

/// The subject every key starting with `prefix` shares in `t` (`team_id/...`,
/// `we_id/...`); nullopt when keys with that prefix may name other shards.
std::optional<key_subject> subject_of_prefix(table t, std::string_view prefix);

/// The shard `s` names without consulting `legacy_shards`: a team's shard, a
/// record id's (core::shard_of_id), a key hash's `XX/` digits; for text of no
/// known shape, a stable hash of it, so such a key is always found where it was put.
core::shard_id named_shard(const key_subject& s);

/// The `key_hashes` key of a key whose hex secret hashes to `secret_sha256`
/// and names `shard`: `XX/<sha256>`, so the key hash is found in its shard.
std::string key_hash_key(core::shard_id shard, std::string_view secret_sha256);

/// The `legacy_shards` value naming `shard`, and its inverse (nullopt for a damaged value).
std::string encode_legacy_shard(core::shard_id shard);
std::optional<core::shard_id> decode_legacy_shard(std::string_view stored);

} // namespace svc::persistence
