#include <boost/asio/post.hpp>

#include "http/respond.hpp"
#include "http/stages/stages.hpp"

namespace svc::http {
namespace {

using continuation = std::function<void(const context_ptr&)>;

// Runs on the actor's thread: hand the verdict back to asio and go on there.
actors::take_callback resume_on_asio(const context_ptr& ctx, continuation next) {
  return {[ctx, next = std::move(next)](const actors::rate_decision& d) {
    net::post(ctx->svc.io, [ctx, next, d] {
      ctx->rate = d;
      if (!d.allowed)
        ctx->error = schema::make_api_error(schema::error_code::too_many_requests,
                                            {{"bucket", d.bucket}, {"seconds", std::to_string(d.retry_after)}});
      next(ctx);
    });
  }};
}

} // namespace

void take_rate_token(const context_ptr& ctx, continuation next) {
  auto& svc = ctx->svc;
  if (!ctx->team || !ctx->match.matched || ctx->matched().needs == schema::scope::none) {
    caf::anon_send(svc.actors().anonymous, actors::take_atom::value, ctx->peer.address,
                   resume_on_asio(ctx, std::move(next)));
    return;
  }
  auto cls = ctx->matched().bucket;
  auto team_id = ctx->team->id;
  if (auto bucket = svc.buckets.find(team_id)) {
    caf::anon_send(bucket, actors::take_atom::value, cls, resume_on_asio(ctx, std::move(next)));
    return;
  }
  // First request of this team since start: resolve its bucket once, then
  // cache it (the context is a spawn argument: see actor_call.hpp).
  svc.system.spawn([cls, team_id, next = std::move(next)](caf::event_based_actor* self, context_ptr ctx) mutable {
    self->request(ctx->svc.actors().buckets, ctx->svc.cfg.request_deadline, actors::resolve_atom::value, team_id)
      .then(
        [ctx, cls, team_id, next](actors::bucket_actor& bucket) {
          ctx->svc.buckets.put(team_id, bucket);
          caf::anon_send(bucket, actors::take_atom::value, cls, resume_on_asio(ctx, next));
        },
        [ctx](caf::error& err) {
          net::post(ctx->svc.io, [ctx, err] { reply_actor_error(ctx, err); });
        });
  }, ctx);
}

} // namespace svc::http
