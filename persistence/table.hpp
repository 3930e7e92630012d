#pragma once
// The LMDB tables (named databases) of the store. FORMAT.md documents each
// one's keys and values; the numbering is part of nothing on disk (tables are
// opened by name), so new tables may be added anywhere.

#include <cstdint>
#include <string_view>

namespace svc::persistence {

enum class table : uint8_t {
  meta,             ///< format version and store-wide facts
  teams,            ///< team id -> team_record
  balances,         ///< team id -> balance_record
  api_keys,         ///< key id -> api_key_record
  api_keys_by_team, ///< team id + '/' + key id -> "" (listing a team's keys)
  key_hashes,       ///< hex SHA-256 of a key secret -> key id
  loras,            ///< lora id -> lora_record
  lora_slugs,       ///< slug -> lora id
  buckets,          ///< team id -> bucket_snapshot
  holds,            ///< team id + '/' + job id -> hold_record (open holds only)
  jobs,             ///< job id -> job_record
  jobs_by_team,     ///< team id + '/' + job id -> job id (listing, newest first)
  live_jobs,        ///< job id -> job id, while the job is not terminal (recovery)
  idempotency,      ///< team id + '/' + route + '/' + key -> idempotency_record
  usage,            ///< team id + '/' + YYYY-MM-DD -> usage_record
  expiries,         ///< 16-digit Unix ms + '/' + kind + '/' + subject -> subject
};

/// Number of tables.
inline constexpr std::size_t table_count = 16;

/// The LMDB database name of a table.
std::string_view table_name(table t);

} // namespace svc::persistence
