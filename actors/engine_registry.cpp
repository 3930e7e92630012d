#include "actors/engine_registry.hpp"

#include <algorithm>

#include "actors/mailbox_depth.hpp"
#include "actors/supervision.hpp"
#include "core/log.hpp"
#include "providers/remote/remote_url.hpp"

namespace svc::actors {
namespace {

using registry_self = engine_registry_actor::stateful_pointer<engine_registry_state>;

caf::error engine_not_found(const std::string& name) {
  return make_domain_error(schema::error_code::resource_not_found, "name", {{"kind", "engine"}, {"id", name}});
}

providers::engine_spec spec_of(const schema::engine_record& r) {
  providers::engine_spec e;
  e.name = r.name;
  e.kind = providers::engine_kind_named(r.kind).value_or(providers::engine_kind::comfyui);
  e.url = r.url;
  e.slots = static_cast<int>(std::clamp<int64_t>(r.slots, 0, 65)); // out of range stays out: the checks refuse it
  for (auto& h : r.headers)
    e.headers.emplace_back(h.name, h.value);
  return e;
}

engine_status status_of(const schema::engine_record& r) {
  std::string why;
  auto url = r.url.empty() ? std::nullopt : providers::parse_remote_url(r.url, why);
  return {r.name, r.kind, url ? url->text() : "", r.slots, r.models, "up", {}, 0, 0, {}};
}

// The field of an add's body that `problem` (engine_spec_problem's) is about.
std::string param_of(const std::string& problem) {
  for (const char* field : {"name", "slots", "url"})
    if (problem.find(std::string{"'"} + field + "'") != std::string::npos)
      return field;
  return "headers";
}

bool in_fleet(const providers::engine_fleet& fleet, const std::string& name) {
  auto engines = fleet.engines();
  return std::any_of(engines.begin(), engines.end(), [&](auto& e) { return e.name == name; });
}

// Commits `batch`, then runs `done` (the change applied) and answers true.
template <class Done>
caf::result<bool> commit_then(registry_self self, const context& ctx, persistence::write_batch batch, Done done) {
  auto promise = self->make_response_promise<bool>();
  self->request(ctx.store, ctx.cfg->request_deadline, commit_atom::value, std::move(batch))
    .await(
      [=](bool) mutable {
        ++self->state.changes;
        done();
        promise.deliver(true);
      },
      [=](caf::error& e) mutable { promise.deliver(e); });
  return promise;
}

// Drains (or resumes) `name`, storing it: a resumed engine of the file needs no row.
caf::result<bool> set_draining(registry_self self, const context& ctx, const engine_registry_services& services,
                               const std::string& name, bool draining) {
  if (!services.fleet || !in_fleet(*services.fleet, name))
    return engine_not_found(name);
  auto row = ctx.tables->engines.get(name);
  if (row.failed())
    return storage_failure("engine_registry", row.why());
  schema::engine_record r = row.has_value() ? *row : schema::engine_record{};
  r.name = name;
  r.draining = draining;
  r.changed_at = ctx.clock->now();
  persistence::write_batch batch;
  if (!r.added && !r.draining && !r.removed)
    ctx.tables->engines.erase(batch, name);
  else
    ctx.tables->engines.put(batch, name, r);
  return commit_then(self, ctx, std::move(batch), [=] {
    core::log_info("engine_registry", name + (draining ? " drained" : " resumed"));
    if (draining)
      self->send(services.jobs, disable_atom::value, name);
    else
      self->send(services.jobs, enable_atom::value, name);
  });
}

// Probes the next engine of the round, to the job directory. One engine a
// message, so a change or a shutdown waits for one probe, not a round.
void probe_next(registry_self self, const context& ctx, const engine_registry_services& services) {
  auto& st = self->state;
  if (st.unprobed.empty()) {
    ++st.probe_rounds;
    for (auto& e : services.fleet->engines())
      st.unprobed.push_back(e.name);
  }
  if (!st.unprobed.empty()) {
    auto name = std::move(st.unprobed.back());
    st.unprobed.pop_back();
    auto timeout = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::min(ctx.cfg->engine_probe_interval, ctx.cfg->remote_connect_timeout));
    self->send(services.jobs, probed_atom::value, name, services.fleet->probe(name, timeout));
  }
  if (st.unprobed.empty())
    self->delayed_send(self, ctx.cfg->engine_probe_interval, probe_atom::value);
  else
    self->send(self, probe_atom::value);
}

} // namespace

void apply_stored_engines(const persistence::tables& tables, providers::engine_fleet& fleet) {
  auto st = tables.engines.for_each([&](const schema::engine_record& r) {
    if (r.removed) {
      fleet.remove(r.name);
      core::log_info("engine_registry", "the file's engine " + r.name + " stays removed, as the operator left it");
    }
    if (r.added) {
      if (auto why = fleet.add(spec_of(r), r.models); !why.empty())
        core::log_error("engine_registry", "the engine " + r.name + ", added at run time, is left out: " + why);
    }
    return true;
  });
  if (!st.ok())
    core::log_error("engine_registry", "reading the stored engines failed: " + st.message + "; the file's engines run as it says");
}

engine_registry_actor::behavior_type engine_registry(registry_self self, context ctx, engine_registry_services services) {
  register_actor(self, ctx, "engine_registry", "engine_registry", "");
  log_exceptions(self, "engine_registry");
  if (services.fleet)
    self->send(self, probe_atom::value);
  return {
    [=](create_atom, schema::engine_record& r) -> caf::result<engine_status> {
      if (!services.fleet)
        return invalid_parameter("name", "this node renders without an engines file (--engines): it takes no engines");
      if (!providers::engine_kind_named(r.kind))
        return invalid_parameter("kind", "must be comfyui, cog, a1111 or procedural");
      auto spec = spec_of(r);
      if (auto problem = providers::engine_spec_problem(spec); !problem.empty())
        return invalid_parameter(param_of(problem), problem);
      auto stored = ctx.tables->engines.get(r.name);
      if (stored.failed())
        return storage_failure("engine_registry", stored.why());
      if (auto why = services.fleet->add(spec, r.models); !why.empty())
        return invalid_parameter(why.find("exists already") != std::string::npos ? "name" : "models", why);
      r.added = true;
      r.draining = false;
      r.removed = stored.has_value() && stored->removed; // the file's engine of this name stays out
      r.changed_at = ctx.clock->now();
      persistence::write_batch batch;
      ctx.tables->engines.put(batch, r.name, r);
      auto promise = self->make_response_promise<engine_status>();
      self->request(ctx.store, ctx.cfg->request_deadline, commit_atom::value, std::move(batch))
        .await(
          [=](bool) mutable {
            ++self->state.changes;
            if (ctx.cfg->workers <= 0) // the pool follows the engines' slots
              services.pool->add_threads(static_cast<std::size_t>(providers::workers_per_engine_slot * r.slots));
            auto status = status_of(r);
            core::log_info("engine_registry", r.name + " added: " + r.kind + " at " + status.url + ", " +
                                                std::to_string(r.slots) + " slots");
            self->send(services.jobs, joined_atom::value, status);
            promise.deliver(std::move(status));
          },
          [=](caf::error& e) mutable {
            services.fleet->remove(r.name); // not stored: not added
            promise.deliver(e);
          });
      return promise;
    },
    [=](delete_atom, const std::string& name) -> caf::result<bool> {
      if (!services.fleet || !in_fleet(*services.fleet, name))
        return engine_not_found(name);
      auto row = ctx.tables->engines.get(name);
      if (row.failed())
        return storage_failure("engine_registry", row.why());
      persistence::write_batch batch;
      if (row.has_value() && row->added && !row->removed) {
        ctx.tables->engines.erase(batch, name);
      } else {
        schema::engine_record r;
        r.name = name;
        r.removed = true;
        r.changed_at = ctx.clock->now();
        ctx.tables->engines.put(batch, name, r);
      }
      return commit_then(self, ctx, std::move(batch), [=] {
        services.fleet->remove(name);
        core::log_info("engine_registry", name + " removed; its running renders finish");
        self->send(services.jobs, left_atom::value, name);
      });
    },
    [=](disable_atom, const std::string& name) { return set_draining(self, ctx, services, name, true); },
    [=](enable_atom, const std::string& name) { return set_draining(self, ctx, services, name, false); },
    [=](probe_atom) { probe_next(self, ctx, services); },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      auto& st = self->state;
      return {"changes=" + std::to_string(st.changes) + " probe_rounds=" + std::to_string(st.probe_rounds),
              mailbox_depth(self)};
    },
  };
}

} // namespace svc::actors
