// svcctl job show / job cancel: any team's image or video, by id.
#include <boost/json.hpp>

#include "core/ids.hpp"
#include "http/admin/admin_handlers.hpp"
#include "http/handlers/handlers.hpp"
#include "http/json_body.hpp"
#include "http/respond.hpp"
#include "schema/job_view.hpp"

namespace svc::http {
namespace {

// The job named by the path's {id} (an img_ or vid_ id of any team); nullopt after answering 404 or 503.
std::optional<schema::job_record> path_job(const context_ptr& ctx) {
  auto& id = ctx->param("id");
  auto job = core::has_id_shape(id, "img") || core::has_id_shape(id, "vid")
               ? ctx->svc.tables().jobs.get(id)
               : persistence::read_result<schema::job_record>::none();
  if (job.failed()) {
    reply_storage_failure(ctx, job.why());
    return std::nullopt;
  }
  if (!job.has_value()) {
    reply_error(ctx, schema::make_api_error(schema::error_code::resource_not_found,
                                            {{"kind", "job"}, {"id", id.substr(0, 64)}}, "id"));
    return std::nullopt;
  }
  return *job;
}

} // namespace

void show_job(const context_ptr& ctx) {
  auto job = path_job(ctx);
  if (!job)
    return;
  // As its team sees it, plus whose it is: the operator starts from a job id.
  auto view = schema::job_view(*job, {ctx->svc.base_url, ctx->svc.url_secret});
  view.as_object()["team_id"] = job->team_id;
  reply_json(ctx, 200, view);
}

void admin_cancel_job(const context_ptr& ctx) {
  if (!read_json_object(ctx, {}, empty_body::allowed))
    return;
  if (auto job = path_job(ctx))
    cancel_team_job(ctx, job->team_id, job->id);
}

} // namespace svc::http
