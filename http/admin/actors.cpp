#include <boost/json.hpp>

#include "http/actor_call.hpp"
#include "http/admin/admin_handlers.hpp"

namespace svc::http {

void list_actors(const context_ptr& ctx) {
  actors::actor_filter filter;
  for (auto& [name, value] : ctx->query) {
    if (name == "kind")
      filter.kind = value;
    else if (name == "team")
      filter.team = value;
    else if (name == "limit" && !value.empty() && value.size() < 7
             && value.find_first_not_of("0123456789") == std::string::npos)
      filter.limit = std::stoull(value);
    else
      return reply_error(ctx, schema::make_api_error(schema::error_code::invalid_parameter,
                                                     {{"detail", "expected kind, team or a numeric limit"}}, name));
  }
  ask<std::vector<actors::actor_summary>>(
    ctx, ctx->svc.actors().registry,
    [ctx](std::vector<actors::actor_summary>& rows) {
      boost::json::array data;
      for (auto& r : rows)
        data.push_back({{"kind", r.kind},
                        {"id", r.id},
                        {"team", r.team},
                        {"state", r.state},
                        {"mailbox", r.mailbox},
                        {"age_ms", r.age_ms}});
      reply_json(ctx, 200, {{"object", "list"}, {"data", std::move(data)}});
    },
    actors::list_atom::value, filter);
}

} // namespace svc::http
