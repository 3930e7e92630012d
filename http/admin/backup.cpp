#include <system_error>
#include <thread>

#include <boost/json.hpp>

#include "http/admin/admin_handlers.hpp"
#include "http/json_body.hpp"
#include "http/respond.hpp"
#include "persistence/backup_files.hpp"
#include "schema/field_reader.hpp"

namespace svc::http {

void backup_store(const context_ptr& ctx) {
  auto to = read_fields(ctx, {"to"}, [](schema::field_reader& f) { return f.text("to", 1, 4096, true).value_or(""); });
  if (!to)
    return;
  // A compacting copy reads the whole store, and the blobs follow it (a blob
  // written after the LMDB snapshot is an orphan the restored server sweeps;
  // one expired meanwhile is one the snapshot's sweep would expire too):
  // keep it off the asio threads, on one thread at most, so repeated
  // requests cannot pile up threads and disk reads.
  if (ctx->svc.backing_up.exchange(true))
    return reply_error(ctx, schema::make_api_error(schema::error_code::invalid_state,
                                                   {{"kind", "store"}, {"id", ctx->svc.cfg.data_dir},
                                                    {"state", "being backed up"}, {"action", "another backup"}}));
  try {
    std::thread([ctx, to = *to] {
      std::size_t blobs = 0;
      auto st = ctx->svc.env.backup(to);
      if (st.ok())
        st = persistence::copy_side_files(ctx->svc.cfg.data_dir, to, blobs);
      ctx->svc.backing_up.store(false);
      net::post(ctx->svc.io, [ctx, to, st, blobs] {
        if (!st.ok())
          return reply_error(ctx, schema::make_api_error(schema::error_code::invalid_parameter, {{"detail", st.message}}, "to"));
        reply_json(ctx, 200, {{"object", "backup"}, {"path", to + "/data.mdb"}, {"blobs", blobs}});
      });
    }).detach();
  } catch (const std::system_error&) { // no thread to be had: nothing started, the next may try
    ctx->svc.backing_up.store(false);
    reply_error(ctx, schema::make_api_error(schema::error_code::unavailable), {{"Retry-After", "1"}});
  }
}

} // namespace svc::http
