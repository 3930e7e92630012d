// GET /admin/engines: the engines this node's job directory schedules, with
// their slots and the jobs that hold them now.
#include <boost/json.hpp>

#include "http/actor_call.hpp"
#include "http/admin/admin_handlers.hpp"

namespace svc::http {

void list_engines(const context_ptr& ctx) {
  ask<std::vector<actors::engine_status>>(
    ctx, ctx->svc.actors().jobs,
    [ctx](std::vector<actors::engine_status>& engines) {
      boost::json::array data;
      for (auto& e : engines) {
        boost::json::array models(e.models.begin(), e.models.end()), jobs(e.jobs.begin(), e.jobs.end());
        data.push_back({{"object", "engine"},
                        {"name", e.name.empty() ? "local" : e.name},
                        {"slots", e.slots},
                        {"busy", static_cast<int64_t>(e.jobs.size())},
                        {"models", std::move(models)},
                        {"jobs", std::move(jobs)}});
      }
      reply_json(ctx, 200, {{"object", "list"}, {"data", std::move(data)}});
    },
    actors::engines_atom::value);
}

} // namespace svc::http
