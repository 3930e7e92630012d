// POST /v1/images and POST /v1/images/estimate.
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

constexpr std::string_view images_route = "images";

// A seed for a request without one; echoed on the record so the image can be reproduced.
uint32_t random_seed() {
  auto bytes = core::random_bytes(4);
  uint32_t seed = 0;
  for (unsigned char b : bytes)
    seed = (seed << 8) | b;
  return seed;
}

schema::job_record new_image_job(const context_ptr& ctx, const priced_image& p) {
  auto& r = p.request;
  schema::job_record job;
  job.id = core::make_id("img");
  job.team_id = ctx->team->id;
  job.kind = schema::job_kind::image;
  job.prompt = r.prompt;
  job.negative_prompt = r.negative_prompt;
  job.width = r.width;
  job.height = r.height;
  job.num_outputs = r.num_outputs;
  job.steps = r.steps;
  job.seed = r.seed_given ? r.seed : random_seed();
  job.loras = p.loras.loras;
  job.selection = p.loras.selection;
  job.init_image = r.init_image;
  job.metadata = r.metadata;
  job.api_version = ctx->version;
  job.credits = p.price.credits;
  job.created_at = ctx->svc.clock->now();
  return job;
}

} // namespace

void create_image(const context_ptr& ctx) {
  auto priced = read_priced_image(ctx);
  if (!priced)
    return;
  bool ok = true;
  auto claim = read_idempotency_claim(ctx, priced->body, ok);
  if (!ok)
    return;
  if (claim)
    if (auto earlier = find_idempotency_record(ctx, images_route, *claim))
      return reply_replay(ctx, *earlier, *claim);

  actors::job_admission admission;
  admission.job = new_image_job(ctx, *priced);
  auto location = ctx->svc.base_url + "/v1/images/" + admission.job.id;
  auto body = boost::json::serialize(
    schema::job_view(admission.job, {ctx->svc.base_url, ctx->svc.url_secret}));
  if (claim) {
    auto now = ctx->svc.clock->now();
    admission.idempotency = schema::idempotency_record{
      ctx->team->id, std::string{images_route}, claim->key, claim->request_sha256, 201, body, location, now,
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

void estimate_image(const context_ptr& ctx) {
  auto priced = read_priced_image(ctx);
  if (!priced)
    return;
  auto balance = ctx->svc.tables().balances.get(ctx->team->id).value_or(schema::balance_record{ctx->team->id, 0, 0, {}});
  reply_json(ctx, 200, schema::estimate_view(priced->price, ctx->version, balance.available));
}

} // namespace svc::http
