#pragma once
// Every table of the store as a typed view: what a reader needs to find any record.

#include "persistence/environment.hpp"
#include "persistence/table_views.hpp"
#include "schema/credit_entry.hpp"
#include "schema/file_record.hpp"
#include "schema/queued_mail.hpp"
#include "schema/records.hpp"
#include "schema/webhook_records.hpp"

namespace svc::persistence {

struct tables {
  explicit tables(const environment& env)
    : env{env},
      teams{env, table::teams},
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
      expiries{env, table::expiries},
      webhook_endpoints{env, table::webhook_endpoints},
      endpoints_by_team{env, table::endpoints_by_team},
      events{env, table::events},
      events_by_team{env, table::events_by_team},
      pending_events{env, table::pending_events},
      delivery_tasks{env, table::delivery_tasks},
      deliveries{env, table::deliveries},
      delivered_events{env, table::delivered_events},
      files{env, table::files},
      files_by_team{env, table::files_by_team},
      mail_queue{env, table::mail_queue},
      credit_entries{env, table::credit_entries},
      engines{env, table::engines} {}

  const environment& env; ///< the store they view, for reads that span tables (`environment::read`)
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
  record_table<schema::webhook_endpoint_record> webhook_endpoints;
  index_table endpoints_by_team; ///< `team_id/we_id` -> endpoint id
  record_table<schema::event_record> events;
  index_table events_by_team;    ///< `team_id/evt_id` -> event id (no test fires)
  index_table pending_events;    ///< event id -> event id until fanned out
  record_table<schema::delivery_task> delivery_tasks; ///< `we_id/task_id`
  record_table<schema::delivery_record> deliveries;   ///< `we_id/dlv_id`
  index_table delivered_events;  ///< `we_id/evt_id` -> the succeeded delivery's id
  record_table<schema::file_record> files;
  index_table files_by_team;     ///< `team_id/file_id` -> file id
  record_table<schema::queued_mail> mail_queue; ///< mail id -> e-mail still to send
  record_table<schema::credit_entry_record> credit_entries; ///< `team_id/cre_id` -> one change of a balance
  record_table<schema::engine_record> engines; ///< engine name -> the operator's change to it at run time
};

} // namespace svc::persistence
