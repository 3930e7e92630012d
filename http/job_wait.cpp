#include "http/job_wait.hpp"

#include <memory>

#include <boost/asio/post.hpp>

#include "http/actor_call.hpp"
#include "http/respond.hpp"

namespace svc::http {

void reply_job_not_found(const context_ptr& ctx, std::string_view kind, const std::string& id) {
  reply_error(ctx, schema::make_api_error(schema::error_code::resource_not_found,
                                          {{"kind", std::string{kind}}, {"id", id.substr(0, 64)}}, "id"));
}

void await_job(const context_ptr& ctx, const std::string& id, caf::duration wait,
               std::function<void(const schema::job_record&)> settled) {
  auto as_it_is = [ctx, id, settled] {
    auto now = ctx->svc.tables().jobs.get(id).keep_if(
      [&](const schema::job_record& job) { return job.team_id == ctx->team->id; });
    if (now.failed())
      return reply_storage_failure(ctx, now.why());
    if (now.has_value())
      return settled(*now);
    auto kind = schema::job_kind_of_id(id);
    reply_job_not_found(ctx, schema::to_string(kind.value_or(schema::job_kind::image)), id);
  };
  if (ctx->svc.draining) // a drain that began already answers no more waits
    return as_it_is();
  auto asking = std::make_shared<caf::actor>();
  auto ticket = ctx->svc.waits.add([ctx, as_it_is, asking] {
    if (*asking) // its answer would come too late
      caf::anon_send_exit(*asking, caf::exit_reason::user_shutdown);
    boost::asio::post(ctx->svc.io, as_it_is);
  });
  *asking = ask_within<schema::job_record>(
    ctx, ctx->svc.actors().jobs, wait,
    [ctx, settled, ticket](schema::job_record& done) {
      ctx->svc.waits.remove(ticket);
      settled(done);
    },
    [ctx, as_it_is, ticket](const caf::error&) {
      ctx->svc.waits.remove(ticket);
      as_it_is();
    },
    actors::wait_atom::value, ctx->team->id, id);
}

} // namespace svc::http
