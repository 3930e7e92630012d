#include "actors/lora_catalogue.hpp"

#include "actors/mailbox_depth.hpp"
#include "actors/supervision.hpp"
#include "core/ids.hpp"
#include "schema/builtin_loras.hpp"

namespace svc::actors {
namespace {

using schema::error_code;

bool valid_slug(const std::string& s) {
  if (s.empty() || s.size() > 64 || s.front() == '-' || s.back() == '-')
    return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
      return false;
  return true;
}

void put_lora(const persistence::tables& tables, persistence::write_batch& batch, const schema::lora_record& l) {
  tables.loras.put(batch, l.id, l);
  tables.lora_slugs.put(batch, l.slug, l.id);
}

} // namespace

persistence::status seed_builtin_loras(persistence::environment& env, const persistence::tables& tables,
                                       const core::clock& clock) {
  if (env.count(persistence::table::loras) > 0)
    return {};
  persistence::write_batch batch;
  for (auto& b : schema::builtin_loras()) {
    schema::lora_record l;
    l.id = core::make_id("lora");
    l.slug = std::string{b.slug};
    l.name = std::string{b.name};
    l.description = std::string{b.description};
    for (auto k : b.keywords)
      l.keywords.emplace_back(k);
    l.builtin = true;
    l.created_at = clock.now();
    put_lora(tables, batch, l);
  }
  return env.commit(batch);
}

lora_catalogue_actor::behavior_type lora_catalogue(lora_catalogue_actor::stateful_pointer<lora_catalogue_state> self,
                                                   context ctx) {
  register_actor(self, ctx, "lora_catalogue", "lora_catalogue", "");
  log_exceptions(self, "lora_catalogue");
  return {
    [=](create_atom, schema::lora_record& l) -> caf::result<schema::lora_record> {
      if (!valid_slug(l.slug))
        return invalid_parameter("slug", "must be 1 to 64 characters of a-z, 0-9 and inner '-'");
      if (l.name.empty() || l.name.size() > 100)
        return invalid_parameter("name", "must be 1 to 100 characters");
      if (l.description.size() > 1000)
        return invalid_parameter("description", "must be at most 1000 characters");
      if (l.keywords.size() > 20)
        return invalid_parameter("keywords", "at most 20 keywords");
      for (auto& k : l.keywords)
        if (k.empty() || k.size() > 40)
          return invalid_parameter("keywords", "each keyword must be 1 to 40 characters");
      auto taken = ctx.tables->lora_slugs.get(l.slug);
      if (taken.failed())
        return storage_failure("lora_catalogue", taken.why());
      if (taken.has_value())
        return invalid_parameter("slug", "a LoRA with slug '" + l.slug + "' exists");
      l.id = core::make_id("lora");
      l.builtin = false;
      l.created_at = ctx.clock->now();
      persistence::write_batch batch;
      put_lora(*ctx.tables, batch, l);
      ++self->state.added;
      auto promise = self->make_response_promise<schema::lora_record>();
      self->request(ctx.store, ctx.cfg->request_deadline, commit_atom::value, std::move(batch))
        .await([=](bool) mutable { promise.deliver(l); }, [=](caf::error& e) mutable { promise.deliver(e); });
      return promise;
    },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      return {"added=" + std::to_string(self->state.added), mailbox_depth(self)};
    },
  };
}

} // namespace svc::actors
