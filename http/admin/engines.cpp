// /admin/engines: the engines this node's job directory schedules (their
// state, slots, renders and the jobs holding them now), and the operator's
// changes to them through the engine registry: add, drain, resume, remove.
#include <algorithm>

#include <boost/json.hpp>

#include "http/actor_call.hpp"
#include "http/admin/admin_handlers.hpp"

namespace svc::http {
namespace {

namespace json = boost::json;

json::object engine_json(const actors::engine_status& e) {
  json::array models(e.models.begin(), e.models.end()), jobs(e.jobs.begin(), e.jobs.end());
  json::object out{{"object", "engine"},
                   {"name", e.name.empty() ? "local" : e.name},
                   {"kind", e.kind},
                   {"url", e.url.empty() ? json::value(nullptr) : json::value(e.url)},
                   {"state", e.state},
                   {"last_error", e.last_error.empty() ? json::value(nullptr) : json::value(e.last_error)},
                   {"slots", e.slots},
                   {"busy", static_cast<int64_t>(e.jobs.size())},
                   {"renders_done", e.renders_done},
                   {"renders_failed", e.renders_failed},
                   {"models", std::move(models)},
                   {"jobs", std::move(jobs)}};
  return out;
}

// Answers with engine `name` as the directory has it now.
void reply_engine(const context_ptr& ctx, const std::string& name) {
  ask<std::vector<actors::engine_status>>(
    ctx, ctx->svc.actors().jobs,
    [ctx, name](std::vector<actors::engine_status>& engines) {
      auto it = std::find_if(engines.begin(), engines.end(),
                             [&](auto& e) { return (e.name.empty() ? "local" : e.name) == name; });
      if (it == engines.end())
        return reply_error(ctx, schema::make_api_error(schema::error_code::resource_not_found,
                                                       {{"kind", "engine"}, {"id", name}}, "name"));
      reply_json(ctx, 200, engine_json(*it));
    },
    actors::engines_atom::value);
}

// Asks the registry for a change of engine `{name}`, then answers with it.
template <class Atom>
void change_engine(const context_ptr& ctx, Atom atom) {
  if (!read_json_object(ctx, {}, empty_body::allowed))
    return;
  auto name = ctx->param("name");
  ask<bool>(ctx, ctx->svc.actors().engines, [ctx, name](bool) { reply_engine(ctx, name); }, atom, name);
}

} // namespace

void list_engines(const context_ptr& ctx) {
  ask<std::vector<actors::engine_status>>(
    ctx, ctx->svc.actors().jobs,
    [ctx](std::vector<actors::engine_status>& engines) {
      json::array data;
      for (auto& e : engines)
        data.push_back(engine_json(e));
      reply_json(ctx, 200, {{"object", "list"}, {"data", std::move(data)}});
    },
    actors::engines_atom::value);
}

void show_engine(const context_ptr& ctx) { reply_engine(ctx, ctx->param("name")); }

void add_engine(const context_ptr& ctx) {
  auto record = read_fields(ctx, {"name", "kind", "url", "slots", "models", "headers"}, [](schema::field_reader& f) {
    schema::engine_record r;
    r.name = f.text("name", 1, 40, true).value_or("");
    r.kind = f.text("kind", 1, 20, true).value_or("");
    r.url = f.text("url", 0, 2048).value_or("");
    r.slots = f.integer("slots", 1, 64).value_or(1);
    r.models = f.strings("models", true).value_or(std::vector<std::string>{});
    if (r.models.empty() || r.models.size() > 100)
      f.fail("models", "must name 1 to 100 models of the catalogue");
    for (auto& [name, value] : f.string_map("headers", {20, 100, 4096}).value_or(std::map<std::string, std::string>{}))
      r.headers.push_back({name, value});
    return r;
  });
  if (!record)
    return;
  ask<actors::engine_status>(
    ctx, ctx->svc.actors().engines, [ctx](actors::engine_status& e) { reply_json(ctx, 201, engine_json(e)); },
    actors::create_atom::value, std::move(*record));
}

void drain_engine(const context_ptr& ctx) { change_engine(ctx, actors::disable_atom::value); }

void resume_engine(const context_ptr& ctx) { change_engine(ctx, actors::enable_atom::value); }

void remove_engine(const context_ptr& ctx) {
  auto name = ctx->param("name");
  ask<bool>(
    ctx, ctx->svc.actors().engines,
    [ctx, name](bool) { reply_json(ctx, 200, {{"object", "engine"}, {"name", name}, {"deleted", true}}); },
    actors::delete_atom::value, name);
}

} // namespace svc::http
