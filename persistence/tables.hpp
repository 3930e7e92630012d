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
      holds{env, table::holds} {}

  record_table<schema::team_record> teams;
  record_table<schema::balance_record> balances;
  record_table<schema::api_key_record> api_keys;
  index_table api_keys_by_team; ///< `team_id/key_id` -> key id
  index_table key_hashes;       ///< secret SHA-256 hex -> key id
  record_table<schema::lora_record> loras;
  index_table lora_slugs;       ///< slug -> lora id
  record_table<schema::bucket_snapshot> buckets;
  record_table<schema::hold_record> holds; ///< `team_id/job_id` -> a job's credit hold
};

} // namespace svc::persistence
