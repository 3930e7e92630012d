#include "actors/endpoint_directory.hpp"

#include <limits>

#include "actors/endpoint_directory_parts.hpp"
#include "actors/idempotent_create.hpp"
#include "actors/mailbox_depth.hpp"
#include "actors/supervision.hpp"
#include "actors/team_gate.hpp"
#include "core/ids.hpp"
#include "core/log.hpp"
#include "core/metric_catalogue.hpp"
#include "persistence/job_rows.hpp"
#include "persistence/webhook_rows.hpp"

namespace svc::actors {
namespace {

using schema::webhook_endpoint_record;

void count_disabled(endpoint_directory_self self, bool was_active, bool is_active) {
  auto& n = self->state.disabled;
  if (was_active && !is_active)
    ++n;
  else if (!was_active && is_active)
    --n;
  show_disabled(self);
}

void remember(endpoint_directory_self self, const webhook_endpoint_record& e, endpoint_actor handle) {
  auto& entry = self->state.endpoints[e.id]; // a new entry is active until told otherwise
  if (handle)
    entry.handle = std::move(handle);
  entry.team_id = e.team_id;
  entry.events = e.events;
  count_disabled(self, entry.is_active, e.is_active);
  entry.is_active = e.is_active;
  self->state.by_team[e.team_id].insert(e.id);
}

} // namespace

// The directory knows every endpoint, so it keeps the gauge of disabled ones
// (right after a restart too: `recover` remembers each stored endpoint).
void show_disabled(endpoint_directory_self self) {
  core::metrics::svc().webhook_disabled_endpoints.get().set(static_cast<double>(self->state.disabled));
}

void forget(endpoint_directory_self self, const std::string& id) {
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

void spawn_endpoint(endpoint_directory_self self, const context& ctx, const endpoint_services& services,
                    const webhook_endpoint_record& e) {
  auto handle = self->spawn(endpoint, ctx, services, e);
  adopt(self, handle);
  remember(self, e, handle);
}

// One task per active subscribed endpoint, committed with the erasure of
// the event's `pending_events` row, then handed to the endpoints.
void fan_out(endpoint_directory_self self, const context& ctx, const schema::event_record& event) {
  auto& st = self->state;
  if (!holds_team(ctx, event.team_id)) // its pending row stays: the shard's new owner fans it out
    return;
  ++st.published;
  persistence::write_batch batch;
  batch.finishes_accepted_work = true; // the event is committed: a full store must still let it fan out
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
        core::log_error("endpoint_directory", "fan-out of " + event.id + " failed: " + caf::to_string(err)
                                               + "; retrying");
        self->delayed_send(self, std::chrono::seconds{1}, publish_atom::value, event);
      });
}

namespace {

// The actor of endpoint `id` died: a successor starts from the record as
// committed and reloads its pending deliveries and timers from LMDB (an
// attempt in flight is made again: delivery is at least once).
void respawn_endpoint(endpoint_directory_self self, const context& ctx, const endpoint_services& services,
                      const std::string& id) {
  auto record = ctx.tables->webhook_endpoints.get(id);
  if (retry_later_if_failed<respawn_atom>(self, record, id, "endpoint_directory", "endpoint " + id + " not respawned yet"))
    return;
  if (record.absent()) {
    forget(self, id);
    return;
  }
  core::log_error("endpoint_directory", "the actor of endpoint " + id + " died; respawning it");
  spawn_endpoint(self, ctx, services, *record);
}

// The endpoint of a team, or the 404 every endpoint-addressed call answers
// (503 `unavailable` while a dead endpoint's successor waits for the store).
endpoint_actor find_endpoint(endpoint_directory_self self, const context& ctx, const std::string& team_id,
                             const std::string& id, caf::error& err) {
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

// A create's commit answered: its idempotency key and its place under the
// team's cap are released (the endpoint, if committed, now counts itself).
void settle_create(endpoint_directory_self self, const std::string& idempotency_key,
                   const std::string& team_id) {
  auto& st = self->state;
  st.creating.erase(idempotency_key);
  if (auto it = st.committing.find(team_id); it != st.committing.end() && --it->second == 0)
    st.committing.erase(it);
}

// Commits a new endpoint unless the team is at `--max-endpoints-per-team`
// (endpoints being committed count too, so concurrent creates cannot pass it).
caf::result<endpoint_created> create(endpoint_directory_self self, const context& ctx,
                                     const endpoint_services& services, endpoint_creation& c) {
  auto& st = self->state;
  if (!holds_team(ctx, c.endpoint.team_id))
    return team_not_held();
  std::string key;
  if (c.idempotency) {
    key = persistence::idempotency_key(c.idempotency->team_id, c.idempotency->route, c.idempotency->key);
    auto earlier = earlier_create(ctx, st.creating, key, "endpoint_directory");
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

} // namespace

endpoint_directory_actor::behavior_type endpoint_directory(endpoint_directory_self self, context ctx,
                                                           endpoint_services services) {
  register_actor(self, ctx, "endpoint_directory", "endpoint_directory", "");
  log_exceptions(self, "endpoint_directory");
  services.directory = caf::actor_cast<endpoint_directory_actor>(self);
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
      if (auto h = find_endpoint(self, ctx, team, id, err))
        return self->delegate(h, patch_atom::value, std::move(p));
      return err;
    },
    [=](rotate_atom, const std::string& team, const std::string& id) -> caf::result<webhook_endpoint_record> {
      caf::error err;
      if (auto h = find_endpoint(self, ctx, team, id, err))
        return self->delegate(h, rotate_atom::value);
      return err;
    },
    [=](delete_atom, const std::string& team, const std::string& id) -> caf::result<bool> {
      caf::error err;
      if (auto h = find_endpoint(self, ctx, team, id, err))
        return self->delegate(h, delete_atom::value);
      return err;
    },
    [=](test_fire_atom, const std::string& team, const std::string& id, std::string& type, std::string& version,
        schema::correlation& cause) -> caf::result<test_fire> {
      caf::error err;
      if (auto h = find_endpoint(self, ctx, team, id, err))
        return self->delegate(h, test_fire_atom::value, std::move(type), std::move(version), std::move(cause));
      return err;
    },
    [=](replay_atom, const std::string& team, const std::string& id, core::time_point since) -> caf::result<int64_t> {
      caf::error err;
      if (auto h = find_endpoint(self, ctx, team, id, err))
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
