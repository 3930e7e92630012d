#pragma once
// Every table of the store as a typed view: what a reader needs to find any record.

#include "persistence/environment.hpp"
#include "persistence/record_table.hpp"
#include "schema/records.hpp"

namespace svc::persistence {

struct tables {
  explicit tables(const environment& env)
    : teams{env, table::teams},
      balances{env, table::balances},
      api_keys{env, table::api_keys},
      api_keys_by_team{env, table::api_keys_by_team},
      key_hashes{env, table::key_hashes},
      loras{env, table::loras},
      lora_slugs{env, table::lora_slugs},
      buckets{env, table::buckets},
      holds{env, table::holds},
      jobs{env, table::jobs},
      jobs_by_team{env, table::jobs_by_team},
      live_jobs{env, table::live_jobs},
      idempotency{env, table::idempotency},
      usage{env, table::usage},
      expiries{env, table::expiries} {}

  record_table<schema::team_record> teams;
  record_table<schema::balance_record> balances;
  record_table<schema::api_key_record> api_keys;
  index_table api_keys_by_team; ///< `team_id/key_id` -> key id
  index_table key_hashes;       ///< secret SHA-256 hex -> key id
  record_table<schema::lora_record> loras;
  index_table lora_slugs;       ///< slug -> lora id
  record_table<schema::bucket_snapshot> buckets;
  record_table<schema::hold_record> holds; ///< `team_id/job_id` -> a job's open credit hold
  record_table<schema::job_record> jobs;
  index_table jobs_by_team;  ///< `team_id/job_id` -> job id
  index_table live_jobs;     ///< job id -> job id while not terminal
  record_table<schema::idempotency_record> idempotency; ///< `team_id/route/key`
  record_table<schema::usage_record> usage;             ///< `team_id/YYYY-MM-DD`
  index_table expiries;      ///< `<16-digit ms>/<kind>/<subject>` -> subject
};

} // namespace svc::persistence
