#include <thread>

#include <boost/json.hpp>

#include "http/admin/admin_handlers.hpp"
#include "http/json_body.hpp"
#include "http/respond.hpp"

namespace svc::http {

void backup_store(const context_ptr& ctx) {
  auto body = read_json_object(ctx, {"to"});
  if (!body)
    return;
  body_fields f{*body};
  auto to = f.string("to", 4096, true);
  if (f.error)
    return reply_error(ctx, *f.error);
  // A compacting copy reads the whole store: keep it off the asio threads.
  std::thread([ctx, to = *to] {
    auto st = ctx->svc.env.backup(to);
    net::post(ctx->svc.io, [ctx, to, st] {
      if (!st.ok())
        return reply_error(ctx, schema::make_api_error(schema::error_code::invalid_parameter, {{"detail", st.message}}, "to"));
      reply_json(ctx, 200, {{"object", "backup"}, {"path", to + "/data.mdb"}});
    });
  }).detach();
}

} // namespace svc::http
