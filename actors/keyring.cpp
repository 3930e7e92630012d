#include "actors/keyring.hpp"

#include "actors/mailbox_depth.hpp"
#include "actors/supervision.hpp"
#include "actors/team_gate.hpp"
#include "core/crypto.hpp"
#include "core/ids.hpp"
#include "core/log.hpp"
#include "core/shard.hpp"
#include "persistence/shard_keys.hpp"
#include "schema/api_key_format.hpp"

namespace svc::actors {
namespace {

using keyring_self = keyring_actor::stateful_pointer<keyring_state>;
using schema::error_code;

// A fresh key record and its plaintext. The secret's first two hex digits
// name the team's shard so any node of a cluster can route the key; the other
// 62 (248 bits) are random.
std::pair<schema::api_key_record, std::string> mint_key(const context& ctx, const std::string& team_id,
                                                        schema::scope s) {
  auto shard = core::shard_of_team(team_id);
  auto secret = core::to_hex(&shard, 1) + core::random_hex(31);
  schema::api_key_record r;
  r.id = core::make_id("key", shard);
  r.team_id = team_id;
  r.key_scope = s;
  r.secret_sha256 = core::to_hex(core::sha256(secret));
  r.last4 = secret.substr(secret.size() - 4);
  r.created_at = ctx.clock->now();
  return {r, schema::api_key_plaintext(secret)};
}

void put_new_key(const context& ctx, persistence::write_batch& batch, const schema::api_key_record& r) {
  ctx.tables->api_keys.put(batch, r.id, r);
  // Under the shard its secret names (mint_key: the team's), where auth looks.
  ctx.tables->key_hashes.put(batch, persistence::key_hash_key(core::shard_of_team(r.team_id), r.secret_sha256), r.id);
  ctx.tables->api_keys_by_team.put(batch, r.team_id + "/" + r.id, r.id);
}

void arm_expiry(keyring_self self, const context& ctx, const schema::api_key_record& r) {
  if (!r.deactivate_at || r.deactivated)
    return;
  self->state.pending_expiries.insert(r.id);
  self->delayed_send(self, until(ctx, *r.deactivate_at), deactivate_atom::value, r.id);
}

// Commits `batch`, then delivers `reply` (or the failure) to `promise`. Awaiting
// keeps this actor's read-modify-write cycles strictly one at a time.
void commit_then(keyring_self self, const context& ctx, persistence::write_batch batch,
                 caf::typed_response_promise<issued_key> promise, issued_key reply) {
  self->request(ctx.store, ctx.cfg->request_deadline, commit_atom::value, std::move(batch))
    .await([=](bool) mutable { promise.deliver(std::move(reply)); },
           [=](caf::error& err) mutable { promise.deliver(std::move(err)); });
}

} // namespace

keyring_actor::behavior_type keyring(keyring_self self, context ctx) {
  register_actor(self, ctx, "keyring", "keyring", "");
  log_exceptions(self, "keyring");
  auto scanned = ctx.tables->api_keys.for_each([&](const schema::api_key_record& r) {
    arm_expiry(self, ctx, r);
    return true;
  });
  if (!scanned.ok())
    core::log_error("keyring", "key grace timers not all re-armed, the store failed: " + scanned.message);
  if (!self->state.pending_expiries.empty())
    core::log_info("keyring", "re-armed " + std::to_string(self->state.pending_expiries.size()) + " key grace timers");
  return {
    [=](create_atom, const std::string& team_id, schema::scope s) -> caf::result<issued_key> {
      if (!holds_team(ctx, team_id))
        return team_not_held();
      auto team = ctx.tables->teams.get(team_id);
      if (team.failed())
        return storage_failure("keyring", team.why());
      if (team.absent())
        return make_domain_error(error_code::resource_not_found, "team", {{"kind", "team"}, {"id", team_id}});
      if (s == schema::scope::none)
        return make_domain_error(error_code::invalid_parameter, "scope", {{"detail", "must be read, write or full"}});
      auto [record, plaintext] = mint_key(ctx, team_id, s);
      persistence::write_batch batch;
      put_new_key(ctx, batch, record);
      ++self->state.issued;
      auto promise = self->make_response_promise<issued_key>();
      commit_then(self, ctx, std::move(batch), promise, {record, plaintext, {}});
      return promise;
    },
    [=](rotate_atom, const std::string& key_id, const std::string& team_id) -> caf::result<issued_key> {
      auto old = ctx.tables->api_keys.get(key_id);
      if (old.failed())
        return storage_failure("keyring", old.why());
      if (old.absent() || (!team_id.empty() && old->team_id != team_id))
        return make_domain_error(error_code::resource_not_found, "id", {{"kind", "api_key"}, {"id", key_id}});
      if (old->deactivated || old->deactivate_at)
        return make_domain_error(error_code::invalid_state, "id",
                                 {{"kind", "api_key"}, {"id", key_id}, {"state", "already rotated"},
                                  {"action", "rotation"}});
      auto [fresh, plaintext] = mint_key(ctx, old->team_id, old->key_scope);
      old->deactivate_at = fresh.created_at + ctx.cfg->key_grace;
      old->replaced_by = fresh.id;
      persistence::write_batch batch;
      put_new_key(ctx, batch, fresh);
      ctx.tables->api_keys.put(batch, old->id, *old);
      ++self->state.issued;
      arm_expiry(self, ctx, *old);
      auto promise = self->make_response_promise<issued_key>();
      commit_then(self, ctx, std::move(batch), promise, {fresh, plaintext, *old});
      return promise;
    },
    [=](revoke_atom, const std::string& key_id, const std::string& team_id) -> caf::result<schema::api_key_record> {
      auto key = ctx.tables->api_keys.get(key_id);
      if (key.failed())
        return storage_failure("keyring", key.why());
      if (key.absent() || (!team_id.empty() && key->team_id != team_id))
        return make_domain_error(error_code::resource_not_found, "id", {{"kind", "api_key"}, {"id", key_id}});
      if (key->revoked_at) // revoking twice changes nothing
        return *key;
      key->revoked_at = ctx.clock->now();
      key->deactivated = true;
      persistence::write_batch batch;
      ctx.tables->api_keys.put(batch, key->id, *key);
      auto promise = self->make_response_promise<schema::api_key_record>();
      auto revoked = *key;
      self->request(ctx.store, ctx.cfg->request_deadline, commit_atom::value, std::move(batch))
        .await([=](bool) mutable {
                 core::log_info("keyring", "key " + key_id + " revoked");
                 promise.deliver(revoked);
               },
               [=](caf::error& err) mutable { promise.deliver(std::move(err)); });
      return promise;
    },
    [=](deactivate_atom, const std::string& key_id) {
      self->state.pending_expiries.erase(key_id);
      auto key = ctx.tables->api_keys.get(key_id);
      if (key.failed()) { // the grace still ends: try again shortly
        core::log_error("keyring", "store read failed: " + key.why() + "; key " + key_id + " expires on retry");
        self->state.pending_expiries.insert(key_id);
        self->delayed_send(self, std::chrono::seconds{1}, deactivate_atom::value, key_id);
        return;
      }
      // A key of a shard that left this node: its new owner's keyring re-armed the grace (`adopt`).
      if (key.absent() || key->deactivated || !key->deactivate_at || !holds_team(ctx, key->team_id))
        return;
      if (ctx.clock->now() < *key->deactivate_at) { // the wall clock moved: not yet
        arm_expiry(self, ctx, *key);
        return;
      }
      key->deactivated = true;
      persistence::write_batch batch;
      ctx.tables->api_keys.put(batch, key->id, *key);
      self->request(ctx.store, ctx.cfg->request_deadline, commit_atom::value, std::move(batch))
        .await([=](bool) { core::log_info("keyring", "key " + key_id + " deactivated after its rotation grace"); },
               [=](caf::error&) {
                 self->state.pending_expiries.insert(key_id); // try again shortly
                 self->delayed_send(self, std::chrono::seconds{1}, deactivate_atom::value, key_id);
               });
    },
    [=](adopt_atom, core::shard_id shard) -> caf::result<int64_t> {
      int64_t armed = 0;
      persistence::scan_range of_shard;
      of_shard.shard = shard; // the shard's range of `api_keys` alone
      auto scanned = ctx.tables->api_keys.for_each(of_shard, [&](const schema::api_key_record& r) {
        if (core::shard_of_team(r.team_id) == shard && !self->state.pending_expiries.count(r.id) && r.deactivate_at
            && !r.deactivated) {
          arm_expiry(self, ctx, r);
          ++armed;
        }
        return true;
      });
      if (!scanned.ok())
        return storage_failure("keyring", scanned.message);
      return armed;
    },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      return {"issued=" + std::to_string(self->state.issued)
                + " grace_timers=" + std::to_string(self->state.pending_expiries.size()),
              mailbox_depth(self)};
    },
  };
}

} // namespace svc::actors
