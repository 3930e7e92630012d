// svcctl job show / job cancel: any team's image or video, by id.
#include <boost/json.hpp>

#include "http/admin/admin_handlers.hpp"
#include "http/admin/path_record.hpp"
#include "http/handlers/handlers.hpp"
#include "http/json_body.hpp"
#include "http/respond.hpp"
#include "schema/job_view.hpp"

namespace svc::http {

void show_job(const context_ptr& ctx) {
  auto job = path_record(ctx, ctx->svc.tables().jobs, {"img", "vid"}, "job");
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
  if (auto job = path_record(ctx, ctx->svc.tables().jobs, {"img", "vid"}, "job"))
    cancel_team_job(ctx, job->team_id, job->id);
}

} // namespace svc::http
