// POST /v1/images, POST /v1/videos and POST /v1/images/estimate: one
// admission path for both kinds, so idempotency, holds and records agree.
#include <boost/json.hpp>

#include "core/crypto.hpp"
#include "core/ids.hpp"
#include "http/actor_call.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/priced_request.hpp"
#include "http/idempotency.hpp"
#include "schema/estimate_view.hpp"
#include "schema/job_view.hpp"

namespace svc::http {
namespace {

// A seed for a request without one; echoed on the record so the output can be reproduced.
uint32_t random_seed() {
  auto bytes = core::random_bytes(4);
  uint32_t seed = 0;
  for (unsigned char b : bytes)
    seed = (seed << 8) | b;
  return seed;
}

// The fields both kinds share.
template <class Request>
schema::job_record new_job(const context_ptr& ctx, schema::job_kind kind, const priced_request<Request>& p) {
  auto& r = p.request;
  schema::job_record job;
  job.id = core::make_id(schema::id_prefix(kind));
  job.team_id = ctx->team->id;
  job.kind = kind;
  job.prompt = r.prompt;
  job.negative_prompt = r.negative_prompt;
  job.width = r.width;
  job.height = r.height;
  job.seed = r.seed_given ? r.seed : random_seed();
  job.loras = p.loras.loras;
  job.selection = p.loras.selection;
  job.init_image = r.init_image;
  job.metadata = r.metadata;
  job.api_version = ctx->version;
  job.credits = p.price.credits;
  job.created_at = ctx->svc.clock->now();
  job.correlation = ctx->correlation();
  return job;
}

// Answers an idempotent replay, or admits `job` (holding its price) and answers 201.
void admit(const context_ptr& ctx, std::string_view route, const boost::json::object& fingerprinted,
           schema::job_record job) {
  bool ok = true;
  auto claim = read_idempotency_claim(ctx, fingerprinted, ok);
  if (!ok)
    return;
  if (claim) {
    auto earlier = find_idempotency_record(ctx, route, *claim);
    if (earlier.failed())
      return reply_storage_failure(ctx, earlier.why());
    if (earlier.has_value())
      return reply_replay(ctx, *earlier, *claim);
  }

  actors::job_admission admission;
  admission.job = std::move(job);
  auto location = ctx->svc.base_url + "/v1/" + std::string{route} + "/" + admission.job.id;
  std::string body;
  schema::write_job_view(body, admission.job, {ctx->svc.base_url, ctx->svc.url_secret});
  if (claim) {
    auto now = ctx->svc.clock->now();
    admission.idempotency = schema::idempotency_record{
      ctx->team->id, std::string{route}, claim->key, claim->request_sha256, 201, body, location, now,
      now + ctx->svc.cfg.idempotency_ttl};
  }
  ask<actors::admission_result>(
    ctx, ctx->svc.actors().jobs,
    [ctx, claim, body = std::move(body), location = std::move(location)](actors::admission_result& r) {
      if (r.replayed)
        return reply_replay(ctx, r.earlier, *claim);
      reply_body(ctx, 201, body, "application/json", {{"Location", location}});
    },
    actors::create_atom::value, std::move(admission));
}

} // namespace

void create_image(const context_ptr& ctx) {
  auto priced = read_priced_image(ctx);
  if (!priced)
    return;
  auto job = new_job(ctx, schema::job_kind::image, *priced);
  job.num_outputs = priced->request.num_outputs;
  job.steps = priced->request.steps;
  admit(ctx, "images", priced->body, std::move(job));
}

void create_video(const context_ptr& ctx) {
  auto priced = read_priced_video(ctx);
  if (!priced)
    return;
  auto job = new_job(ctx, schema::job_kind::video, *priced);
  job.num_outputs = 1;
  job.duration_seconds = priced->request.duration_seconds;
  job.fps = priced->request.fps;
  admit(ctx, "videos", priced->body, std::move(job));
}

void estimate_image(const context_ptr& ctx) {
  auto priced = read_priced_image(ctx);
  if (!priced)
    return;
  auto balance = ctx->svc.tables().balances.get(ctx->team->id);
  if (balance.failed())
    return reply_storage_failure(ctx, balance.why());
  reply_json(ctx, 200, schema::estimate_view(priced->price, ctx->version, balance.has_value() ? balance->available : 0));
}

} // namespace svc::http
