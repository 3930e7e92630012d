// POST /admin/shards/{shard}/move starts moving a shard this node holds to
// another node (cluster/shard_mover.hpp); GET follows it. Both are
// routed to the shard's owner: the old one until the move commits, then the
// new one, which shows the move as committed.
#include <boost/json.hpp>

#include "http/actor_call.hpp"
#include "http/admin/admin_handlers.hpp"
#include "http/request_route.hpp"
#include "http/respond.hpp"
#include "http/json_body.hpp"

namespace svc::http {

namespace json = boost::json;

json::object shard_move_json(const actors::shard_move_status& m) {
  return {{"shard", m.shard},   {"to", m.to},       {"state", m.state},         {"rows", m.rows},
          {"blobs", m.blobs},   {"bytes", m.bytes}, {"frozen_ms", m.frozen_ms}, {"error", m.error}};
}

void move_shard(const context_ptr& ctx) {
  auto to = read_fields(ctx, {"to"}, [](schema::field_reader& f) { return f.text("to", 1, 128, true).value_or(""); });
  if (!to)
    return;
  auto shard = parse_shard_number(ctx->param("shard"));
  if (!shard)
    return reply_error(ctx, schema::make_api_error(schema::error_code::invalid_parameter,
                                                   {{"detail", "a shard is a number from 0 to 255"}}, "shard"));
  if (!ctx->svc.move_shard)
    return reply_error(ctx, schema::make_api_error(schema::error_code::invalid_state,
                                                   {{"kind", "node"}, {"id", ctx->svc.cfg.node_id},
                                                    {"state", "not in a cluster"}, {"action", "moving a shard"}}));
  actors::shard_move_status status;
  auto refused = ctx->svc.move_shard(*shard, *to, status);
  if (refused == schema::error_code::invalid_parameter)
    return reply_error(ctx, schema::make_api_error(*refused, {{"detail", "not a live member other than this node"}},
                                                   "to"));
  if (refused)
    return reply_error(ctx, schema::make_api_error(*refused, {{"kind", "shard"},
                                                              {"id", std::to_string(*shard)},
                                                              {"state", "moving or not held by this node"},
                                                              {"action", "moving it"}}));
  reply_json(ctx, 202, shard_move_json(status));
}

void show_shard_move(const context_ptr& ctx) {
  auto shard = parse_shard_number(ctx->param("shard"));
  if (!shard)
    return reply_error(ctx, schema::make_api_error(schema::error_code::invalid_parameter,
                                                   {{"detail", "a shard is a number from 0 to 255"}}, "shard"));
  auto not_found = [ctx, shard = *shard] {
    reply_error(ctx, schema::make_api_error(schema::error_code::resource_not_found,
                                            {{"kind", "shard move"}, {"id", std::to_string(shard)}}));
  };
  if (!ctx->svc.cluster)
    return not_found();
  ask<actors::cluster_status>(
    ctx, ctx->svc.cluster,
    [ctx, shard = *shard, not_found](actors::cluster_status& s) {
      for (auto it = s.moves.rbegin(); it != s.moves.rend(); ++it)
        if (it->shard == shard)
          return reply_json(ctx, 200, shard_move_json(*it));
      not_found();
    },
    actors::list_atom::value);
}

} // namespace svc::http
