#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "http/respond.hpp"
#include "http/stages/stages.hpp"

namespace svc::http {
namespace {

using continuation = std::function<void(const context_ptr&)>;

/// How soon takes decided on the asio thread are charged to their buckets.
constexpr std::chrono::milliseconds charge_delay{1000};

// Runs on an asio thread with a bucket actor's verdict and goes on;
// `on_verdict` sees the verdict first.
take_relay::on_verdict go_on(const context_ptr& ctx, continuation next,
                             std::function<void(const actors::rate_decision&)> on_verdict = {}) {
  return [ctx, next = std::move(next), on_verdict = std::move(on_verdict)](const actors::rate_decision& d) {
    if (on_verdict)
      on_verdict(d);
    ctx->rate = d;
    if (!d.allowed)
      ctx->error = schema::make_api_error(schema::error_code::too_many_requests,
                                          {{"bucket", d.bucket}, {"seconds", std::to_string(d.retry_after)}});
    next(ctx);
  };
}

// A take the bucket actor could not answer (it died, or the deadline passed).
take_relay::on_error give_up(const context_ptr& ctx) {
  return [ctx](const caf::error& err) { reply_actor_error(ctx, err); };
}

int64_t now_ms(const services& svc) { return core::to_unix_ms(svc.clock->now()); }

// Arms the charge of the takes decided here, unless it is armed already.
void schedule_charges(services& svc) {
  if (svc.charges_due.exchange(true))
    return;
  auto timer = std::make_shared<net::steady_timer>(svc.io, charge_delay);
  timer->async_wait([&svc, timer](const boost::system::error_code&) {
    svc.charges_due = false;
    charge_buckets(svc);
  });
}

// The team's bucket decides this take, after the takes decided here since
// the last charge (sent first, so its verdict counts them).
void ask_bucket(const context_ptr& ctx, const actors::bucket_actor& bucket, schema::bucket_class cls,
                uint64_t team_writes, continuation next) {
  auto& svc = ctx->svc;
  if (auto n = svc.allowances.ask(ctx->team->id, cls, now_ms(svc)); n > 0)
    caf::anon_send(bucket, actors::charge_atom::value, cls, n);
  auto seed = [ctx, cls, team_writes](const actors::rate_decision& d) {
    ctx->svc.allowances.answered(*ctx->team, cls, team_writes, d, now_ms(ctx->svc));
  };
  svc.takes.take(bucket, cls, go_on(ctx, std::move(next), seed), give_up(ctx));
}

} // namespace

void take_rate_token(const context_ptr& ctx, continuation next) {
  auto& svc = ctx->svc;
  if (!ctx->team || !ctx->match.matched || ctx->matched().needs == schema::scope::none) {
    svc.takes.take(svc.actors().anonymous, ctx->peer.address, go_on(ctx, std::move(next)), give_up(ctx));
    return;
  }
  auto cls = ctx->matched().bucket;
  auto team_id = ctx->team->id;
  auto team_writes = ctx->team_writes;
  if (auto bucket = svc.buckets.find(team_id)) {
    if (auto d = svc.allowances.take(*ctx->team, cls, team_writes, now_ms(svc))) {
      ctx->rate = std::move(*d);
      schedule_charges(svc);
      next(ctx);
      return;
    }
    ask_bucket(ctx, bucket, cls, team_writes, std::move(next));
    return;
  }
  // First request of this team since start: resolve its bucket once, then
  // cache it (the context is a spawn argument: see actor_call.hpp).
  svc.system.spawn([cls, team_id, team_writes, next = std::move(next)](caf::event_based_actor* self,
                                                                       context_ptr ctx) mutable {
    self->request(ctx->svc.actors().buckets, ctx->svc.cfg.request_deadline, actors::resolve_atom::value, team_id)
      .then(
        [ctx, cls, team_id, team_writes, next](actors::bucket_actor& bucket) {
          ctx->svc.buckets.put(team_id, bucket);
          ask_bucket(ctx, bucket, cls, team_writes, next);
        },
        [ctx](caf::error& err) {
          net::post(ctx->svc.io, [ctx, err] { reply_actor_error(ctx, err); });
        });
  }, ctx);
}

void charge_buckets(services& svc) {
  for (auto& c : svc.allowances.uncharged())
    if (auto bucket = svc.buckets.find(c.team_id))
      caf::anon_send(bucket, actors::charge_atom::value, c.cls, c.n);
}

} // namespace svc::http
