#pragma once
// The LMDB tables (named databases) of the store. FORMAT.md documents each
// one's keys and values; the numbering is part of nothing on disk (tables are
// opened by name), so new tables may be added anywhere.

#include <cstddef>
#include <cstdint>
#include <optional>
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
  webhook_endpoints,  ///< endpoint id -> webhook_endpoint_record
  endpoints_by_team,  ///< team id + '/' + endpoint id -> endpoint id
  events,             ///< event id -> event_record (test fires too)
  events_by_team,     ///< team id + '/' + event id -> event id (the events feed; no test fires)
  pending_events,     ///< event id -> event id, until it is fanned out to its endpoints
  delivery_tasks,     ///< endpoint id + '/' + task id -> delivery_task (attempts still to make)
  deliveries,         ///< endpoint id + '/' + delivery id -> delivery_record (one per attempt)
  delivered_events,   ///< endpoint id + '/' + event id -> delivery id of the success
  files,              ///< file id -> file_record (uploads; the bytes are blobs)
  files_by_team,      ///< team id + '/' + file id -> file id (listing, newest first)
  mail_queue,         ///< mail id -> queued_mail (e-mail not yet sent or handed to the outbox)
  credit_entries,     ///< team id + '/' + entry id -> credit_entry_record (a team's credit history)
  legacy_shards,      ///< id or key hash minted before sharding -> its team's shard (shard_keys.hpp)
  engines,            ///< engine name -> engine_record (the operator's changes to the engines at run time)
};

/// Number of tables.
inline constexpr std::size_t table_count = 30;

/// The table numbered `index`, or nullopt past the last: for numbers that
/// arrive from another node.
inline std::optional<table> table_from_index(std::uint8_t index) {
  return index < table_count ? std::optional<table>{static_cast<table>(index)} : std::nullopt;
}

/// The LMDB database name of a table.
std::string_view table_name(table t);

} // namespace svc::persistence
