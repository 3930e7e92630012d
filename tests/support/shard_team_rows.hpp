#pragma once
// One team's rows of every kind, written through the writers' helpers, for
// the tests and the bench of shard moves (persistence/shard_rows.hpp).

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/crypto.hpp"
#include "core/ids.hpp"
#include "persistence/credit_entry_rows.hpp"
#include "persistence/file_rows.hpp"
#include "persistence/job_rows.hpp"
#include "persistence/shard_keys.hpp"
#include "persistence/webhook_rows.hpp"
#include "tests/support/file_records.hpp"

namespace svc::test {

/// Rows by table and key, with their stored bytes.
using row_map = std::map<std::pair<persistence::table, std::string>, std::string>;

/// What a batch leaves in the store: its puts, the last one of a key winning.
inline row_map puts_of(const persistence::write_batch& b) {
  row_map out;
  for (auto& op : b.ops)
    if (op.value)
      out[{op.tbl, op.key}] = *op.value;
    else
      out.erase({op.tbl, op.key});
  return out;
}

/// When the rows were made.
inline const auto rows_at = core::from_unix_ms(1763720130123);
/// Every retention and expiry of the rows: 30 days.
inline const core::duration rows_retention{std::chrono::hours{24 * 30}};

/// Every kind of row one team has, written through the writers' helpers;
/// its ids name `ids_shard` (the team's own, or another for a legacy team,
/// whose ids then get the `legacy_shards` rows a store upgraded from format 1 has).
struct team_rows {
  std::string team_id;
  persistence::write_batch batch;
  std::string job_id, live_job_id, key_id, endpoint_id, event_id, file_id;
  std::string key_hash; ///< the key's `key_hashes` key (`XX/<sha256>`)
  std::set<std::string> blobs;

  team_rows(const persistence::tables& t, std::string team, core::shard_id ids_shard) : team_id{std::move(team)} {
    std::vector<std::string> ids; // every id minted, and the key hash's key
    auto id = [&](const char* prefix) { return ids.emplace_back(core::make_id(prefix, ids_shard)); };
    schema::team_record tr;
    tr.id = team_id;
    tr.name = "team " + team_id;
    tr.owner_email = "ops@example.test";
    tr.created_at = rows_at;
    t.teams.put(batch, team_id, tr);
    t.balances.put(batch, team_id, schema::balance_record{team_id, 90, 10, std::nullopt});
    schema::bucket_snapshot buckets;
    buckets.team_id = team_id;
    buckets.levels["reads"] = {3.5, 1763720130123};
    t.buckets.put(batch, team_id, buckets);

    schema::api_key_record key;
    key_id = key.id = id("key");
    key.team_id = team_id;
    key.key_scope = schema::scope::write;
    key.secret_sha256 = core::to_hex(core::sha256(team_id)); // unique per team
    key_hash = ids.emplace_back(persistence::key_hash_key(ids_shard, key.secret_sha256));
    key.last4 = key.secret_sha256.substr(60);
    key.created_at = rows_at;
    t.api_keys.put(batch, key.id, key);
    t.key_hashes.put(batch, key_hash, key.id);
    t.api_keys_by_team.put(batch, persistence::owned_key(team_id, key.id), key.id);

    schema::job_record job;
    job_id = job.id = id("img");
    job.team_id = team_id;
    job.status = schema::job_status::succeeded;
    job.prompt = "a lighthouse";
    job.width = job.height = 64;
    job.outputs.push_back({"image/png", 100, 64, 64, std::string(64, 'e')});
    job.outputs_expire_at = rows_at + rows_retention;
    job.created_at = rows_at;
    persistence::put_job(t, batch, job);
    blobs.insert(schema::output_blob_key(job, 0));
    auto live = job;
    live_job_id = live.id = id("img");
    live.status = schema::job_status::queued;
    live.outputs.clear();
    live.outputs_expire_at.reset();
    persistence::put_job(t, batch, live);
    t.holds.put(batch, persistence::owned_key(team_id, live.id), schema::hold_record{team_id, live.id, 10, {}, rows_at});

    schema::idempotency_record idem;
    idem.team_id = team_id;
    idem.route = "images";
    idem.key = "create-1";
    idem.body = "{}";
    idem.created_at = rows_at;
    idem.expires_at = rows_at + rows_retention;
    persistence::put_idempotency(t, batch, idem);
    t.usage.put(batch, persistence::owned_key(team_id, "2025-11-21"), schema::usage_record{team_id, "2025-11-21", 2, 1, 0});
    for (auto kind : {schema::credit_entry_kind::grant, schema::credit_entry_kind::hold}) {
      schema::credit_entry_record e;
      e.id = id("cre");
      e.team_id = team_id;
      e.kind = kind;
      e.amount = kind == schema::credit_entry_kind::grant ? 100 : -10;
      e.created_at = rows_at;
      t.credit_entries.put(batch, persistence::credit_entry_key(team_id, e.id), e);
    }

    schema::webhook_endpoint_record we;
    endpoint_id = we.id = id("we");
    we.team_id = team_id;
    we.url = "https://hooks.example.test/svc";
    we.events = {"image.completed"};
    we.secret = "whsec_x";
    we.created_at = we.updated_at = rows_at;
    persistence::put_endpoint(t, batch, we);
    schema::event_record ev;
    event_id = ev.id = id("evt");
    ev.team_id = team_id;
    ev.type = "image.completed";
    ev.created_at = rows_at;
    ev.body = "{\"id\":\"" + ev.id + "\"}";
    persistence::put_event(t, batch, ev, rows_retention, persistence::fan_out::pending);
    persistence::put_task(t, batch, schema::delivery_task{id("dlv"), we.id, ev.id, 2, rows_at});
    persistence::put_delivery(t, batch, delivery(id("dlv"), we.id, ev), rows_retention);

    // An endpoint deleted after a success: its `delivered_events` row stays, known only by its event.
    auto gone = we;
    gone.id = id("we");
    persistence::put_endpoint(t, batch, gone);
    persistence::put_delivery(t, batch, delivery(id("dlv"), gone.id, ev), rows_retention);
    (void) persistence::erase_endpoint(t, batch, gone);

    auto file = png_upload(id("file"), rows_at, rows_at + rows_retention);
    file_id = file.id;
    file.team_id = team_id;
    persistence::put_file(t, batch, file);
    blobs.insert(schema::file_blob_key(file.id));

    // First in the batch, so the rows after them are written in the team's shard.
    auto team_shard = core::shard_of_team(team_id);
    if (team_shard != ids_shard) {
      persistence::write_batch legacy;
      for (auto& i : ids)
        legacy.put(persistence::table::legacy_shards, i, persistence::encode_legacy_shard(team_shard));
      legacy.append(std::move(batch));
      batch = std::move(legacy);
    }
  }

  schema::delivery_record delivery(std::string id, const std::string& we, const schema::event_record& ev) const {
    schema::delivery_record d;
    d.id = std::move(id);
    d.endpoint_id = we;
    d.team_id = team_id;
    d.event_id = ev.id;
    d.event_type = ev.type;
    d.succeeded = d.is_terminal = true;
    d.response_status = 200;
    d.created_at = rows_at;
    return d;
  }

  row_map rows() const { return puts_of(batch); }
};

} // namespace svc::test
