// POST /v1/images, POST /v1/videos and POST /v1/images/estimate: one
// admission path for both kinds, so idempotency, holds and records agree.
#include <boost/json.hpp>

#include "core/crypto.hpp"
#include "core/ids.hpp"
#include "core/shard.hpp"
#include "http/actor_call.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/job_admission.hpp"
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

// The fields only images have.
void add_kind_fields(schema::job_record& job, const schema::image_request& r) {
  job.num_outputs = r.num_outputs;
  job.steps = r.steps;
}

// The fields only videos have; a video is one output.
void add_kind_fields(schema::job_record& job, const schema::video_request& r) {
  job.num_outputs = 1;
  job.duration_seconds = r.duration_seconds;
  job.fps = r.fps;
}

// The job a priced request of `kind` asks for, as it will be stored (`queued`).
template <class Request>
schema::job_record new_job(const context_ptr& ctx, schema::job_kind kind, const priced_request<Request>& p) {
  auto& r = p.request;
  schema::job_record job;
  job.id = core::make_id(schema::id_prefix(kind), core::shard_of_team(ctx->team->id));
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
  job.model = p.model->id;
  job.credits = p.price.credits;
  job.created_at = ctx->svc.clock->now();
  job.correlation = ctx->correlation();
  add_kind_fields(job, r);
  return job;
}

// Answers an idempotent replay, or admits `job` (holding its price) and answers 201.
void admit(const context_ptr& ctx, std::string_view route, const boost::json::object& fingerprinted,
           schema::job_record job) {
  std::optional<idempotency_claim> claim;
  if (!claim_create(ctx, route, fingerprinted, claim))
    return;
  auto location = ctx->svc.base_url + "/v1/" + std::string{route} + "/" + job.id;
  std::string body;
  schema::write_job_view(body, job, {ctx->svc.base_url, ctx->svc.url_secret});
  auto answer = on_created<actors::admission_result>(ctx, claim, body, location);
  admit_job(ctx, route, claim, std::move(job), body, location, std::move(answer));
}

} // namespace

schema::job_record new_image_job(const context_ptr& ctx, const priced_image& p) {
  return new_job(ctx, schema::job_kind::image, p);
}

void admit_job(const context_ptr& ctx, std::string_view route, const std::optional<idempotency_claim>& claim,
               schema::job_record job, const std::string& answer, const std::string& location,
               std::function<void(actors::admission_result&)> on_result) {
  actors::job_admission admission;
  admission.job = std::move(job);
  admission.idempotency = replay_record(ctx, route, claim, answer, location);
  ask<actors::admission_result>(ctx, ctx->svc.actors().jobs, std::move(on_result), actors::create_atom::value,
                                std::move(admission));
}

void create_image(const context_ptr& ctx) {
  if (auto priced = read_priced_image(ctx))
    admit(ctx, "images", priced->body, new_image_job(ctx, *priced));
}

void create_video(const context_ptr& ctx) {
  if (auto priced = read_priced_video(ctx))
    admit(ctx, "videos", priced->body, new_job(ctx, schema::job_kind::video, *priced));
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
