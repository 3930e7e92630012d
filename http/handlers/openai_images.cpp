// POST /v1/images/generations and POST /v1/images/edits: OpenAI's image API
// over Svc's, so that apps built on OpenAI's SDKs spend a team's credits with
// its keys. Each request admits an ordinary image job (listed, priced, held
// and charged, with its events and webhooks) and answers OpenAI's
// `{created, data}` once the job ends, or 504 after --openai-wait while the
// job runs on. A repeat under the same `Idempotency-Key` waits for the same job.
#include <boost/json.hpp>

#include "core/crypto.hpp"
#include "core/duration.hpp"
#include "core/log.hpp"
#include "core/time_format.hpp"
#include "http/actor_call.hpp"
#include "http/edit_form.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/job_admission.hpp"
#include "http/image_upload.hpp"
#include "http/job_wait.hpp"
#include "http/json_body.hpp"
#include "schema/job_view.hpp"
#include "schema/openai_images.hpp"

namespace svc::http {
namespace {

using schema::error_code;
using schema::make_api_error;
using schema::openai_format;

// The routes' idempotency scopes, apart from POST /v1/images, whose repeats
// answer another shape. No '/' in them: the stored key separates team, route
// and key with it.
constexpr std::string_view generations_route = "images_generations";
constexpr std::string_view edits_route = "images_edits";

// Refusals in OpenAI's field names (`size`, `n`), the ones the caller wrote.
refusal_answer in_openai_terms(const context_ptr& ctx) {
  return [ctx](const schema::api_error& e) { reply_error(ctx, schema::as_openai_error(e)); };
}

// The answer's form, and whether it repeats an earlier request's job.
struct openai_answer {
  openai_format format;
  bool replayed;
};

void reply_outputs_expired(const context_ptr& ctx, core::time_point expired_at, header_list extra) {
  reply_error(ctx, make_api_error(error_code::url_expired, {{"expired_at", core::format_iso8601(expired_at)}}),
              std::move(extra));
}

// The outputs' bytes inline. Reading and encoding them (up to four images)
// happens on the blob-read pool, off the asio threads; the answer is sent from asio.
void reply_inline_outputs(const context_ptr& ctx, const schema::job_record& job, core::time_point expires,
                          header_list extra) {
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < job.outputs.size(); ++i)
    keys.push_back(schema::output_blob_key(job, i));
  auto created = core::to_unix_seconds(job.created_at);
  net::post(ctx->svc.blob_reads, [ctx, keys = std::move(keys), id = job.id, created, expires,
                                  extra = std::move(extra)]() mutable {
    std::vector<std::string> encoded;
    for (auto& key : keys)
      if (auto bytes = ctx->svc.runtime.blobs().get(key))
        encoded.push_back(core::base64_encode(*bytes));
    std::string body;
    if (encoded.size() == keys.size())
      body = boost::json::serialize(schema::openai_images_view(created, encoded, openai_format::b64_json));
    net::post(ctx->svc.io, [ctx, id, expires, body = std::move(body), extra = std::move(extra)]() mutable {
      if (!body.empty())
        return reply_body(ctx, 200, std::move(body), "application/json", std::move(extra));
      // The expiry sweeper deletes the bytes when the URLs expire; anything else is a fault.
      if (ctx->svc.clock->now() >= expires)
        return reply_outputs_expired(ctx, expires, std::move(extra));
      core::log_error("http", ctx->request_id + ": an output of " + id + " is missing from the blob store");
      reply_error(ctx, make_api_error(error_code::internal_error, {{"request_id", ctx->request_id}}), std::move(extra));
    });
  });
}

void reply_outputs(const context_ptr& ctx, const schema::job_record& job, openai_format format, header_list extra) {
  // A job that succeeded has its outputs' expiry (job.cpp sets it with the status).
  auto expires = job.outputs_expire_at.value_or(core::time_point{});
  if (expires <= ctx->svc.clock->now())
    return reply_outputs_expired(ctx, expires, std::move(extra));
  if (format == openai_format::b64_json)
    return reply_inline_outputs(ctx, job, expires, std::move(extra));
  auto urls = schema::output_urls(job, {ctx->svc.base_url, ctx->svc.url_secret});
  reply_json(ctx, 200, schema::openai_images_view(core::to_unix_seconds(job.created_at), urls, format),
             std::move(extra));
}

// How long the request has been waiting: --openai-wait, or less when a drain cut it short.
std::string waited(const context_ptr& ctx) {
  return core::format_duration(
    std::chrono::duration_cast<core::duration>(std::chrono::steady_clock::now() - ctx->received));
}

// Answers with how the job stands once the wait is over: its outputs, or an
// error envelope for each way it can end without them (or not end in time).
void answer_job(const context_ptr& ctx, const schema::job_record& job, openai_answer shape) {
  header_list extra;
  if (shape.replayed)
    extra.emplace_back("Idempotent-Replayed", "true");
  using status = schema::job_status;
  auto status_name = std::string{schema::to_string(job.status)};
  switch (job.status) {
  case status::queued:
  case status::processing:
    // Without a key, a retry would start and pay for a second job while this
    // one runs: the SDKs, which retry a 5xx, honour this header.
    if (!ctx->header("Idempotency-Key"))
      extra.emplace_back("x-should-retry", "false");
    return reply_error(ctx,
                       make_api_error(error_code::generation_timeout,
                                      {{"id", job.id}, {"status", status_name}, {"wait", waited(ctx)}}),
                       std::move(extra));
  case status::succeeded: return reply_outputs(ctx, job, shape.format, std::move(extra));
  case status::cancelled:
    // Someone of the team cancelled it: a retry (which the SDKs make of a 409) must not render it anew.
    extra.emplace_back("x-should-retry", "false");
    return reply_error(ctx,
                       make_api_error(error_code::invalid_state, {{"kind", "image"},
                                                                  {"id", job.id},
                                                                  {"state", status_name},
                                                                  {"action", "answering with its outputs"}}),
                       std::move(extra));
  default: break;
  }
  auto failure = job.failure.value_or(schema::job_failure{status_name, "no reason was recorded"});
  if (job.status == status::moderation_rejected || failure.code == "moderation")
    return reply_error(ctx,
                       make_api_error(error_code::generation_rejected, {{"id", job.id}, {"detail", failure.message}}),
                       std::move(extra));
  reply_error(ctx,
              make_api_error(error_code::generation_failed, {{"id", job.id},
                                                             {"status", status_name},
                                                             {"failure_code", failure.code},
                                                             {"detail", failure.message}}),
              std::move(extra));
}

void answer_when_done(const context_ptr& ctx, const std::string& id, openai_answer shape) {
  await_job(ctx, id, caf::duration{ctx->svc.cfg.openai_wait},
            [ctx, shape](const schema::job_record& job) { answer_job(ctx, job, shape); });
}

// A repeat of an earlier request (same key and body) waits for that request's
// job again, whose id ends the stored `Location`: after a 504, a retry gets
// the outputs instead of a second job.
replay_answer replay_by_waiting(const context_ptr& ctx, openai_format format) {
  return [ctx, format](const schema::idempotency_record& earlier) {
    answer_when_done(ctx, earlier.location.substr(earlier.location.rfind('/') + 1), {format, true});
  };
}

// Admits the job; the stored answer is its record at create, so that the
// request's repeats find the job.
void admit_and_answer(const context_ptr& ctx, std::string_view route, const std::optional<idempotency_claim>& claim,
                      schema::job_record job, openai_format format) {
  auto location = ctx->svc.base_url + "/v1/images/" + job.id;
  std::string record;
  schema::write_job_view(record, job, {ctx->svc.base_url, ctx->svc.url_secret});
  auto id = job.id;
  admit_job(ctx, route, claim, std::move(job), record, location,
            [ctx, claim, format, id](actors::admission_result& r) {
              if (r.replayed)
                return reply_replay(ctx, r.earlier, *claim, replay_by_waiting(ctx, format));
              answer_when_done(ctx, id, {format, false});
            });
}

// The edit form is whole: its fields judged and priced as a generation's, its
// image checked, then the image stored as the team's init image and the job admitted.
void admit_edit(const context_ptr& ctx, schema::checked<edit_parts> parts, const slot_gate::slot& slot) {
  if (!parts)
    return reply_error(ctx, parts.error());
  auto fields = schema::openai_form_fields(parts.value().fields);
  auto asked = schema::read_openai_image_request(fields);
  if (!asked)
    return reply_error(ctx, asked.error());
  auto priced = price_image_body(ctx, std::move(asked.value().svc_body), in_openai_terms(ctx));
  if (!priced)
    return;
  auto up = image_file_upload(ctx, std::move(parts.value().image), schema::file_purpose::init_image, "image");
  if (!up)
    return;
  // A repeat must send the same image too. Hashed only when a key asks for
  // the comparison: 20 MiB take tens of milliseconds of an asio thread.
  if (ctx->header("Idempotency-Key"))
    fields["image_sha256"] = core::to_hex(core::sha256(*up->bytes));
  auto format = asked.value().format;
  std::optional<idempotency_claim> claim;
  if (!claim_create(ctx, edits_route, fields, claim, replay_by_waiting(ctx, format)))
    return;
  // The slot is held until the image is stored: its bytes are in memory until then.
  ask<schema::file_record>(
    ctx, ctx->svc.actors().files,
    [ctx, slot, claim, format, priced = std::move(*priced)](schema::file_record& stored) mutable {
      priced.request.init_image = stored.id;
      admit_and_answer(ctx, edits_route, claim, new_image_job(ctx, priced), format);
    },
    actors::create_atom::value, std::move(*up));
}

} // namespace

void create_openai_image(const context_ptr& ctx) {
  auto body = parse_json_object(ctx);
  if (!body)
    return;
  auto asked = schema::read_openai_image_request(*body);
  if (!asked)
    return reply_error(ctx, asked.error());
  auto priced = price_image_body(ctx, std::move(asked.value().svc_body), in_openai_terms(ctx));
  if (!priced)
    return;
  auto format = asked.value().format;
  std::optional<idempotency_claim> claim;
  if (!claim_create(ctx, generations_route, *body, claim, replay_by_waiting(ctx, format)))
    return;
  admit_and_answer(ctx, generations_route, claim, new_image_job(ctx, *priced), format);
}

void edit_openai_image(const context_ptr& ctx) { read_form<edit_form>(ctx, "image and prompt", admit_edit); }

} // namespace svc::http
