// GET /v1/events and GET /v1/events/{id}: the team's events feed, each item
// the envelope exactly as its deliveries carried it. Test fires are not in it.
#include <boost/json.hpp>

#include "core/ids.hpp"
#include "core/log.hpp"
#include "http/handlers/handlers.hpp"
#include "http/list_params.hpp"
#include "http/owned_read.hpp"
#include "http/respond.hpp"
#include "schema/event_types.hpp"

namespace svc::http {
namespace {

// The stored envelope as JSON; nullopt for a body that does not parse
// (logged: it was written by this server, so that is damage).
std::optional<boost::json::value> envelope_of(const schema::event_record& e) {
  boost::json::error_code ec;
  auto v = boost::json::parse(e.body, ec);
  if (ec || !v.is_object()) {
    core::log_warn("events", "event " + e.id + " has an unreadable envelope");
    return std::nullopt;
  }
  return v;
}

void reply_event_not_found(const context_ptr& ctx, const std::string& id) {
  reply_error(ctx, schema::make_api_error(schema::error_code::resource_not_found,
                                          {{"kind", "event"}, {"id", id.substr(0, 64)}}, "id"));
}

} // namespace

void list_events(const context_ptr& ctx) {
  auto params = read_list_params(ctx, "evt", {"type"});
  if (!params)
    return;
  std::optional<std::string> type;
  if (auto it = params->filters.find("type"); it != params->filters.end()) {
    if (!schema::is_event_type(it->second)) {
      std::string types;
      for (auto& t : schema::event_types())
        types += (types.empty() ? "" : ", ") + t;
      return reply_error(ctx, schema::make_api_error(schema::error_code::invalid_parameter,
                                                     {{"detail", "must be one of " + types}}, "type"));
    }
    type = it->second;
  }
  auto& tables = ctx->svc.tables();
  // Test fires and events the sweeper removed under the scan are skipped.
  reply_team_list(ctx, tables.events_by_team, "evt", *params,
                  [&](std::string_view id) -> persistence::read_result<boost::json::value> {
                    auto e = tables.events.get(id).keep_if([&](const schema::event_record& e) {
                      return !e.synthetic && (!type || e.type == *type);
                    });
                    if (!e.has_value())
                      return e.failed() ? persistence::read_result<boost::json::value>::error(e.why())
                                        : persistence::read_result<boost::json::value>::none();
                    if (auto envelope = envelope_of(*e))
                      return std::move(*envelope);
                    return persistence::read_result<boost::json::value>::none();
                  });
}

void get_event(const context_ptr& ctx) {
  auto& id = ctx->param("id");
  auto e = read_owned(ctx, ctx->svc.tables().events, id, "evt");
  if (e.failed())
    return reply_storage_failure(ctx, e.why());
  auto envelope = e.has_value() && !e->synthetic ? envelope_of(*e) : std::nullopt;
  if (!envelope)
    return reply_event_not_found(ctx, id);
  reply_json(ctx, 200, *envelope);
}

} // namespace svc::http
