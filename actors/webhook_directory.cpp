#include "actors/webhook_directory.hpp"

#include <limits>

#include "actors/idempotent_create.hpp"
#include "actors/mailbox_depth.hpp"
#include "actors/recovery_batch.hpp"
#include "actors/supervision.hpp"
#include "actors/team_gate.hpp"
#include "core/ids.hpp"
#include "core/log.hpp"
#include "core/metric_catalogue.hpp"
#include "persistence/job_rows.hpp"
#include "persistence/webhook_rows.hpp"

namespace svc::actors {
namespace {

using self_ptr = webhook_directory_actor::stateful_pointer<webhook_directory_state>;
using schema::webhook_endpoint_record;

// The directory knows every endpoint, so it keeps the gauge of disabled ones
// (right after a restart too: `recover` remembers each stored endpoint).
void show_disabled(self_ptr self) {
  core::metrics::svc().webhook_disabled_endpoints.get().set(static_cast<double>(self->state.disabled));
}

void count_disabled(self_ptr self, bool was_active, bool is_active) {
  auto& n = self->state.disabled;
  if (was_active && !is_active)
    ++n;
  else if (!was_active && is_active)
    --n;
  show_disabled(self);
}

void remember(self_ptr self, const webhook_endpoint_record& e, endpoint_actor handle) {
  auto& entry = self->state.endpoints[e.id]; // a new entry is active until told otherwise
  if (handle)
    entry.handle = std::move(handle);
  entry.team_id = e.team_id;
  entry.events = e.events;
  count_disabled(self, entry.is_active, e.is_active);
  entry.is_active = e.is_active;
  self->state.by_team[e.team_id].insert(e.id);
}

void forget(self_ptr self, const std::string& id) {
  self->state.loading.erase(id);
  auto it = self->state.endpoints.find(id);
  if (it == self->state.endpoints.end())
    return;
  count_disabled(self, it->second.is_active, true);
  auto team = self->state.by_team.find(it->second.team_id);
  if (team != self->state.by_team.end()) {
    team->second.erase(id);
    if (team->second.empty())
      self->state.by_team.erase(team);
  }
  self->state.endpoints.erase(it);
}

void spawn_endpoint(self_ptr self, const context& ctx, const endpoint_services& services,
                    const webhook_endpoint_record& e) {
  auto handle = self->spawn(endpoint, ctx, services, e);
  adopt(self, handle);
  remember(self, e, handle);
}

// The actor of endpoint `id` died: a successor starts from the record as
// committed and reloads its pending deliveries and timers from LMDB (an
// attempt in flight is made again: delivery is at least once).
void respawn_endpoint(self_ptr self, const context& ctx, const endpoint_services& services, const std::string& id) {
  auto record = ctx.tables->webhook_endpoints.get(id);
  if (retry_later_if_failed<respawn_atom>(self, record, id, "webhook_directory", "endpoint " + id + " not respawned yet"))
    return;
  if (record.absent()) {
    forget(self, id);
    return;
  }
  core::log_error("webhook_directory", "the actor of endpoint " + id + " died; respawning it");
  spawn_endpoint(self, ctx, services, *record);
}

// The endpoint of a team, or the 404 every endpoint-addressed call answers
// (503 `unavailable` while a dead endpoint's successor waits for the store).
endpoint_actor find(self_ptr self, const context& ctx, const std::string& team_id, const std::string& id,
                    caf::error& err) {
  if (!holds_team(ctx, team_id)) {
    err = team_not_held();
    return {};
  }
  auto it = self->state.endpoints.find(id);
  if (it == self->state.endpoints.end() || it->second.team_id != team_id) {
    err = make_domain_error(schema::error_code::resource_not_found, "id",
                            {{"kind", "webhook endpoint"}, {"id", id.substr(0, 64)}});
    return {};
  }
  if (!it->second.handle)
    err = caf::sec::request_receiver_down;
  return it->second.handle;
}

// One task per active subscribed endpoint, committed with the erasure of
// the event's `pending_events` row, then handed to the endpoints.
void fan_out(self_ptr self, const context& ctx, const schema::event_record& event) {
  auto& st = self->state;
  if (!holds_team(ctx, event.team_id)) // its pending row stays: the shard's new owner fans it out
    return;
  ++st.published;
  persistence::write_batch batch;
  std::vector<std::pair<endpoint_actor, schema::delivery_task>> handoffs;
  if (auto team = st.by_team.find(event.team_id); team != st.by_team.end()) {
    auto now = ctx.clock->now();
    for (auto& id : team->second) {
      auto& entry = st.endpoints[id];
      if (!entry.is_active || std::find(entry.events.begin(), entry.events.end(), event.type) == entry.events.end())
        continue;
      schema::delivery_task task{core::make_ulid(), id, event.id, 1, now};
      persistence::put_task(*ctx.tables, batch, task);
      handoffs.emplace_back(entry.handle, std::move(task));
    }
  }
  st.tasks += handoffs.size();
  ctx.tables->pending_events.erase(batch, event.id);
  self->request(ctx.store, caf::infinite, commit_atom::value, std::move(batch))
    .then(
      [self, handoffs = std::move(handoffs)](bool) {
        // An endpoint being respawned loads its tasks from LMDB instead.
        for (auto& [handle, task] : handoffs)
          if (handle)
            self->send(handle, deliver_atom::value, task);
      },
      [self, event](caf::error& err) {
        core::log_error("webhook_directory", "fan-out of " + event.id + " failed: " + caf::to_string(err)
                                               + "; retrying");
        self->delayed_send(self, std::chrono::seconds{1}, publish_atom::value, event);
      });
}

// A create's commit answered: its idempotency key and its place under the
// team's cap are released (the endpoint, if committed, now counts itself).
void settle_create(self_ptr self, const std::string& idempotency_key, const std::string& team_id) {
  auto& st = self->state;
  st.creating.erase(idempotency_key);
  if (auto it = st.committing.find(team_id); it != st.committing.end() && --it->second == 0)
    st.committing.erase(it);
}

// Commits a new endpoint unless the team is at `--max-endpoints-per-team`
// (endpoints being committed count too, so concurrent creates cannot pass it).
caf::result<endpoint_created> create(self_ptr self, const context& ctx, const endpoint_services& services,
                                     endpoint_creation& c) {
  auto& st = self->state;
  if (!holds_team(ctx, c.endpoint.team_id))
    return team_not_held();
  std::string key;
  if (c.idempotency) {
    key = persistence::idempotency_key(c.idempotency->team_id, c.idempotency->route, c.idempotency->key);
    auto earlier = earlier_create(ctx, st.creating, key, "webhook_directory");
    if (!earlier)
      return std::move(earlier.error());
    if (*earlier)
      return endpoint_created{true, std::move(**earlier), {}}; // replayed
  }
  auto& team_id = c.endpoint.team_id;
  auto team = st.by_team.find(team_id);
  auto committing = st.committing.find(team_id);
  auto count = (team == st.by_team.end() ? 0 : team->second.size())
               + (committing == st.committing.end() ? 0 : committing->second);
  if (count >= static_cast<std::size_t>(ctx.cfg->max_endpoints_per_team))
    return make_domain_error(schema::error_code::endpoint_limit_reached, "", {{"count", std::to_string(count)}});
  ++st.committing[team_id];
  persistence::write_batch batch;
  persistence::put_endpoint(*ctx.tables, batch, c.endpoint);
  if (c.idempotency) {
    persistence::put_idempotency(*ctx.tables, batch, *c.idempotency);
    st.creating.insert(key);
  }
  endpoint_created r;
  r.endpoint = c.endpoint;
  auto promise = self->make_response_promise<endpoint_created>();
  self->request(ctx.store, caf::infinite, commit_atom::value, std::move(batch))
    .then(
      [=](bool) mutable {
        settle_create(self, key, r.endpoint.team_id);
        spawn_endpoint(self, ctx, services, r.endpoint);
        promise.deliver(std::move(r));
      },
      [=](caf::error& err) mutable {
        settle_create(self, key, r.endpoint.team_id);
        promise.deliver(std::move(err));
      });
  return promise;
}

// Recovery is over once every endpoint loaded its tasks and every pending event is fanned out.
void check_recovered(self_ptr self, const context& ctx) {
  auto& st = self->state;
  if (!st.loading.empty() || st.fanning_out || st.recovery_began == core::time_point{})
    return;
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(ctx.clock->now() - st.recovery_began);
  st.recovery_began = {};
  if (st.recovered > 0)
    core::log_info("webhook_directory", "recovered " + std::to_string(st.recovered)
                                          + " pending deliveries and events in " + std::to_string(took.count())
                                          + " ms");
}

// Fans out the pending events of `ids` (`pending_events` keys) whose team
// this node holds; with `shard`, only that shard's. How many.
int64_t fan_out_events(self_ptr self, const context& ctx, const std::vector<std::string>& ids,
                       std::optional<core::shard_id> shard) {
  int64_t fanned = 0;
  for (auto& id : ids) {
    auto event = ctx.tables->events.get(id);
    if (event.failed()) { // its pending row stays: the next start fans it out
      core::log_error("webhook_directory", "event " + id + " not fanned out, the store failed: " + event.why());
    } else if (event.has_value()) {
      if (!holds_team(ctx, event->team_id) || (shard && core::shard_of_team(event->team_id) != *shard))
        continue; // another node's (its row here goes with the shard), or not this adoption's
      fan_out(self, ctx, *event);
      ++fanned;
    } else if (!shard) {
      persistence::write_batch batch;
      ctx.tables->pending_events.erase(batch, id);
      self->request(ctx.store, caf::infinite, commit_atom::value, std::move(batch))
        .then([](bool) {},
              [id](caf::error& err) { // harmless: the next start finds the row again
                core::log_warn("webhook_directory", "pending row of " + id + " not erased: " + caf::to_string(err));
              });
    }
  }
  return fanned;
}

// Fans out the `pending_events` rows after `after` (one read transaction),
// then asks for the next batch.
void fan_out_pending(self_ptr self, const context& ctx, const std::string& after) {
  auto& st = self->state;
  auto pending = recovery_batch(self, ctx.tables->pending_events, after, event_recovery_batch, "webhook_directory",
                                "pending events");
  if (!pending)
    return;
  st.recovered += fan_out_events(self, ctx, pending->keys, std::nullopt);
  if (continue_recovery(self, *pending))
    return;
  st.fanning_out = false;
  check_recovered(self, ctx);
}

// Spawns the stored endpoints of the teams this node holds that have no
// actor yet (each loads its pending tasks and re-arms their timers); with
// `shard`, only that shard's. The endpoints spawned, or the store's failure
// (after spawning those read).
caf::expected<std::vector<std::string>> spawn_stored_endpoints(self_ptr self, const context& ctx,
                                                               const endpoint_services& services,
                                                               std::optional<core::shard_id> shard) {
  std::vector<webhook_endpoint_record> stored;
  persistence::scan_range range;
  range.shard = shard; // unset: every shard's
  auto endpoints_read = ctx.tables->webhook_endpoints.for_each(range, [&](const webhook_endpoint_record& e) {
    if (holds_team(ctx, e.team_id) && (!shard || core::shard_of_team(e.team_id) == *shard)
        && !self->state.endpoints.count(e.id))
      stored.push_back(e);
    return true;
  });
  std::vector<std::string> spawned;
  for (auto& e : stored) {
    spawn_endpoint(self, ctx, services, e);
    spawned.push_back(e.id);
  }
  if (!endpoints_read.ok())
    return storage_failure("webhook_directory", "endpoints not all started: " + endpoints_read.message);
  return spawned;
}

// Takes `shard` over: its endpoints and its pending events, as a start does.
caf::result<int64_t> adopt_shard(self_ptr self, const context& ctx, const endpoint_services& services,
                                 core::shard_id shard) {
  auto began = ctx.clock->now();
  auto spawned = spawn_stored_endpoints(self, ctx, services, shard);
  if (!spawned)
    return std::move(spawned.error());
  int64_t events = 0;
  auto failed = each_key_batch(ctx.tables->pending_events, shard, event_recovery_batch,
                               [&](const std::vector<std::string>& ids) { events += fan_out_events(self, ctx, ids, shard); });
  if (failed)
    return storage_failure("webhook_directory", *failed);
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(ctx.clock->now() - began);
  core::log_info("webhook_directory", "shard " + std::to_string(shard) + ": started " + std::to_string(spawned->size())
                                        + " endpoints, fanned out " + std::to_string(events) + " pending events in "
                                        + std::to_string(took.count()) + " ms");
  return static_cast<int64_t>(spawned->size()) + events;
}

// Lets go of `shard`: its endpoints exit once their queued writes landed
// (their tasks and deadlines stay stored) and are forgotten.
caf::result<int64_t> release_shard(self_ptr self, core::shard_id shard) {
  std::set<caf::actor_addr> told;
  std::vector<std::string> ids;
  for (auto& [id, entry] : self->state.endpoints)
    if (core::shard_of_team(entry.team_id) == shard) {
      ids.push_back(id);
      if (entry.handle) {
        self->send(entry.handle, release_atom::value);
        told.insert(entry.handle.address());
      }
    }
  for (auto& id : ids)
    forget(self, id);
  core::log_info("webhook_directory", "shard " + std::to_string(shard) + ": releasing " + std::to_string(told.size())
                                        + " endpoints");
  return self->state.releases.begin(self, std::move(told));
}

void recover(self_ptr self, const context& ctx, const endpoint_services& services) {
  self->state.recovery_began = ctx.clock->now();
  // A failed read is logged there; the endpoints read before it start.
  spawn_stored_endpoints(self, ctx, services, std::nullopt);
  for (auto& [id, entry] : self->state.endpoints)
    self->state.loading.insert(id);
  show_disabled(self); // this start's count, none included (not the last incarnation's)
  if (!self->state.endpoints.empty())
    core::log_info("webhook_directory", std::to_string(self->state.endpoints.size()) + " endpoints started");
  self->send(self, recover_atom::value, std::string{});
}

} // namespace

webhook_directory_actor::behavior_type webhook_directory(self_ptr self, context ctx, endpoint_services services) {
  register_actor(self, ctx, "webhook_directory", "webhook_directory", "");
  log_exceptions(self, "webhook_directory");
  services.directory = caf::actor_cast<webhook_directory_actor>(self);
  self->set_down_handler([=](caf::down_msg& dm) {
    release(self, dm.source);
    self->state.releases.gone(dm.source);
    if (!died(dm.reason))
      return; // deleted (`changed` forgot it) or released
    for (auto& [id, entry] : self->state.endpoints)
      if (entry.handle.address() == dm.source) {
        entry.handle = nullptr;
        respawn_endpoint(self, ctx, services, id);
        return;
      }
  });
  recover(self, ctx, services);
  return {
    [=](create_atom, endpoint_creation& c) -> caf::result<endpoint_created> {
      return create(self, ctx, services, c);
    },
    [=](patch_atom, const std::string& team, const std::string& id,
        endpoint_patch& p) -> caf::result<webhook_endpoint_record> {
      caf::error err;
      if (auto h = find(self, ctx, team, id, err))
        return self->delegate(h, patch_atom::value, std::move(p));
      return err;
    },
    [=](rotate_atom, const std::string& team, const std::string& id) -> caf::result<webhook_endpoint_record> {
      caf::error err;
      if (auto h = find(self, ctx, team, id, err))
        return self->delegate(h, rotate_atom::value);
      return err;
    },
    [=](delete_atom, const std::string& team, const std::string& id) -> caf::result<bool> {
      caf::error err;
      if (auto h = find(self, ctx, team, id, err))
        return self->delegate(h, delete_atom::value);
      return err;
    },
    [=](test_fire_atom, const std::string& team, const std::string& id, std::string& type, std::string& version,
        schema::correlation& cause) -> caf::result<test_fire> {
      caf::error err;
      if (auto h = find(self, ctx, team, id, err))
        return self->delegate(h, test_fire_atom::value, std::move(type), std::move(version), std::move(cause));
      return err;
    },
    [=](replay_atom, const std::string& team, const std::string& id, core::time_point since) -> caf::result<int64_t> {
      caf::error err;
      if (auto h = find(self, ctx, team, id, err))
        return self->delegate(h, replay_atom::value, since);
      return err;
    },
    [=](publish_atom, const schema::event_record& event) { fan_out(self, ctx, event); },
    [=](changed_atom, const webhook_endpoint_record& e, bool removed) {
      if (removed)
        forget(self, e.id);
      else if (self->state.endpoints.count(e.id))
        remember(self, e, {});
    },
    [=](respawn_atom, const std::string& id) {
      auto it = self->state.endpoints.find(id);
      if (it != self->state.endpoints.end() && !it->second.handle)
        respawn_endpoint(self, ctx, services, id);
    },
    [=](loaded_atom, const std::string& id, int64_t tasks) {
      if (self->state.loading.erase(id) == 0)
        return; // a new endpoint, or a respawned one after the start
      self->state.recovered += tasks;
      check_recovered(self, ctx);
    },
    [=](recover_atom, const std::string& after) { fan_out_pending(self, ctx, after); },
    [=](release_atom, core::shard_id shard) { return release_shard(self, shard); },
    [=](adopt_atom, core::shard_id shard) { return adopt_shard(self, ctx, services, shard); },
    [=](ready_atom) -> recovery_status {
      auto& st = self->state;
      return {st.loading.empty() && !st.fanning_out, st.recovered};
    },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      auto& st = self->state;
      return {"endpoints=" + std::to_string(st.endpoints.size()) + " published=" + std::to_string(st.published)
                + " tasks=" + std::to_string(st.tasks),
              mailbox_depth(self)};
    },
  };
}

} // namespace svc::actors
