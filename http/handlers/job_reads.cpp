// GET /v1/images/{id}, GET /v1/videos/{id} (both with `Prefer: wait=N`), their
// lists, and the cancel routes: one implementation per operation for both kinds.
#include <charconv>
#include <chrono>
#include <memory>

#include <boost/asio/steady_timer.hpp>
#include <boost/json.hpp>

#include "actors/job.hpp"
#include "core/ids.hpp"
#include "core/log.hpp"
#include "core/time_format.hpp"
#include "http/actor_call.hpp"
#include "http/handlers/handlers.hpp"
#include "http/job_wait.hpp"
#include "http/json_body.hpp"
#include "http/list_params.hpp"
#include "schema/job_view.hpp"

namespace svc::http {
namespace {

/// Longest `Prefer: wait` honoured, in seconds (decisions.md).
constexpr int max_wait_seconds = 60;

// The `wait=N` preference (RFC 7240), capped at 60 s; 0 when absent or malformed,
// since a preference the server cannot honour is ignored, not an error.
int preferred_wait(const context_ptr& ctx) {
  auto it = ctx->req.find("Prefer");
  if (it == ctx->req.end())
    return 0;
  std::string_view v = it->value();
  for (std::size_t pos = 0; pos < v.size();) {
    auto end = v.find_first_of(",;", pos);
    auto token = v.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    while (!token.empty() && token.front() == ' ')
      token.remove_prefix(1);
    while (!token.empty() && token.back() == ' ')
      token.remove_suffix(1);
    if (token.size() > 5 && token.substr(0, 5) == "wait=") {
      int n = 0;
      auto digits = token.substr(5);
      auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
      if (ec == std::errc{} && p == digits.data() + digits.size() && n > 0)
        return std::min(n, max_wait_seconds);
      if (ec == std::errc::result_out_of_range)
        return max_wait_seconds;
      return 0;
    }
    if (end == std::string_view::npos)
      break;
    pos = end + 1;
  }
  return 0;
}

// The view written straight into the body: no json::value tree on the read path.
void reply_job(const context_ptr& ctx, const schema::job_record& job, header_list extra = {}) {
  std::string body;
  schema::write_job_view(body, job, {ctx->svc.base_url, ctx->svc.url_secret});
  reply_body(ctx, 200, std::move(body), "application/json", std::move(extra));
}

// The view of the caller's job `id` as stored now: from the cache when the
// stored bytes are those it was made from. Null when there is no such job of
// this team (an answer has then been sent).
std::shared_ptr<const job_view_cache::view> current_view(const context_ptr& ctx, schema::job_kind kind,
                                                          const std::string& id) {
  auto object = schema::to_string(kind);
  if (!core::has_id_shape(id, schema::id_prefix(kind))) {
    reply_job_not_found(ctx, object, id);
    return nullptr;
  }
  auto& jobs = ctx->svc.tables().jobs;
  auto stored = jobs.get_stored(id);
  if (stored.failed()) {
    reply_storage_failure(ctx, stored.why());
    return nullptr;
  }
  std::shared_ptr<const job_view_cache::view> view;
  if (stored.has_value())
    view = ctx->svc.job_views.find(id, *stored);
  if (!view && stored.has_value()) {
    if (auto job = jobs.decode(*stored)) {
      job_view_cache::view made{job->team_id, job->status, {}};
      schema::write_job_view(made.body, *job, {ctx->svc.base_url, ctx->svc.url_secret});
      view = ctx->svc.job_views.put(id, std::move(*stored), std::move(made));
    }
  }
  if (!view || view->team_id != ctx->team->id) { // another team's job is as unknown as a missing one
    reply_job_not_found(ctx, object, id);
    return nullptr;
  }
  return view;
}

// A queued job with where it stands in the fair queue (`queue_position`,
// `estimated_start_at`), as the job directory says; without them when it
// cannot say (the job left the queue meanwhile, or the directory is slow).
void reply_queued_job(const context_ptr& ctx, std::shared_ptr<const job_view_cache::view> job, const std::string& id) {
  ask_within<actors::queue_place>(
    ctx, ctx->svc.actors().jobs, caf::duration{ctx->svc.cfg.request_deadline},
    [ctx, job](actors::queue_place& place) {
      if (place.position <= 0)
        return reply_body(ctx, 200, job->body, "application/json");
      auto view = boost::json::parse(job->body).as_object();
      view["queue_position"] = place.position;
      view["estimated_start_at"] = place.estimated_start_ms > 0
                                     ? boost::json::value(core::format_iso8601(core::from_unix_ms(place.estimated_start_ms)))
                                     : boost::json::value(nullptr);
      reply_json(ctx, 200, view);
    },
    [ctx, job](const caf::error&) { reply_body(ctx, 200, job->body, "application/json"); },
    actors::position_atom::value, ctx->team->id, id);
}

void get_job(const context_ptr& ctx, schema::job_kind kind) {
  auto& id = ctx->param("id");
  auto job = current_view(ctx, kind, id);
  if (!job)
    return;
  // A draining server waits for nothing: the job as it is now.
  auto wait = ctx->svc.draining ? 0 : preferred_wait(ctx);
  if (wait == 0 && job->status == schema::job_status::queued)
    return reply_queued_job(ctx, std::move(job), id);
  if (wait == 0 || schema::is_terminal(job->status))
    return reply_body(ctx, 200, job->body, "application/json");
  // Held until terminal; when the wait runs out, or a drain starts, the row as it is then.
  header_list applied{{"Preference-Applied", "wait=" + std::to_string(wait)}};
  await_job(ctx, id, caf::duration{std::chrono::seconds{wait}},
            [ctx, applied](const schema::job_record& now) { reply_job(ctx, now, applied); });
}

void list_jobs(const context_ptr& ctx, schema::job_kind kind) {
  auto prefix = std::string{schema::id_prefix(kind)};
  auto params = read_list_params(ctx, prefix, {"status"});
  if (!params)
    return;
  std::optional<schema::job_status> status;
  if (auto it = params->filters.find("status"); it != params->filters.end()) {
    status = schema::job_status_from_name(it->second);
    if (!status)
      return reply_error(ctx, schema::make_api_error(
                                schema::error_code::invalid_parameter,
                                {{"detail", "must be one of queued, processing, succeeded, failed, cancelled, "
                                            "expired, moderation_rejected"}},
                                "status"));
  }
  auto& tables = ctx->svc.tables();
  reply_team_list(ctx, tables.jobs_by_team, prefix, *params, [&](std::string_view id) {
    return tables.jobs.get(id)
      .keep_if([&](const schema::job_record& job) { return !status || job.status == *status; })
      .map([&](schema::job_record&& job) { return schema::job_view(job, {ctx->svc.base_url, ctx->svc.url_secret}); });
  });
}

/// How often a cancel past the request deadline looks at its job's row.
constexpr std::chrono::milliseconds settle_poll{25};

// A cancel the job did not answer within the request deadline may have
// happened with its refund still being committed (a slow disk), or may yet
// happen. Its answer is what the job's row ends up saying, never a 503 for a
// cancel that happened nor a 200 before its refund is durable: `cancelled`
// (committed with the refund in one transaction) answers 200; any other end
// (it succeeded, or failed, first) is 409 as a cancel of a terminal job is.
// A row that is not terminal yet is looked at again shortly; a drain that
// closes the connection first answers nothing.
void answer_when_settled(const context_ptr& ctx, const std::string& team_id, const std::string& id) {
  auto kind = *schema::job_kind_of_id(id); // the routes took only img_ and vid_ ids
  auto job = ctx->svc.tables().jobs.get(id).keep_if([&](const schema::job_record& r) { return r.team_id == team_id; });
  if (job.absent())
    return reply_job_not_found(ctx, schema::to_string(kind), id);
  if (job.has_value() && schema::is_terminal(job->status)) {
    if (job->status == schema::job_status::cancelled)
      return reply_job(ctx, *job);
    return reply_actor_error(ctx, actors::not_cancellable(*job));
  }
  if (job.failed())
    core::log_warn("http", ctx->request_id + ": the cancelled job " + id + " is unreadable for now: " + job.why());
  auto timer = std::make_shared<boost::asio::steady_timer>(ctx->svc.io, settle_poll);
  timer->async_wait([ctx, team_id, id, timer](const boost::system::error_code& ec) {
    if (!ec)
      answer_when_settled(ctx, team_id, id);
  });
}

void cancel(const context_ptr& ctx) {
  if (!read_json_object(ctx, {}, empty_body::allowed))
    return;
  cancel_team_job(ctx, ctx->team->id, ctx->param("id"));
}

} // namespace

void cancel_team_job(const context_ptr& ctx, const std::string& team_id, const std::string& id) {
  ask_within<schema::job_record>(
    ctx, ctx->svc.actors().jobs, caf::duration{ctx->svc.cfg.request_deadline},
    [ctx](schema::job_record& job) { reply_job(ctx, job); },
    [ctx, team_id, id](const caf::error& err) {
      if (err == caf::sec::request_timeout)
        return answer_when_settled(ctx, team_id, id);
      reply_actor_error(ctx, err);
    },
    actors::cancel_atom::value, team_id, id);
}

void get_image(const context_ptr& ctx) { get_job(ctx, schema::job_kind::image); }
void get_video(const context_ptr& ctx) { get_job(ctx, schema::job_kind::video); }
void list_images(const context_ptr& ctx) { list_jobs(ctx, schema::job_kind::image); }
void list_videos(const context_ptr& ctx) { list_jobs(ctx, schema::job_kind::video); }

void cancel_job(const context_ptr& ctx) {
  auto& id = ctx->param("id");
  // The spec lets the images path cancel videos too.
  if (!core::has_id_shape(id, "img") && !core::has_id_shape(id, "vid"))
    return reply_job_not_found(ctx, "image", id);
  cancel(ctx);
}

void cancel_video(const context_ptr& ctx) {
  auto& id = ctx->param("id");
  if (!core::has_id_shape(id, "vid"))
    return reply_job_not_found(ctx, "video", id);
  cancel(ctx);
}

} // namespace svc::http
