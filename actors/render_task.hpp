#pragma once
// The render of one job on a provider worker-pool thread, as opposed to the
// job actor's behaviour: it renders through the back end and stores the
// outputs there, and tells the job actor how it went only by messages.

#include "actors/job.hpp"
#include "providers/cancel_token.hpp"
#include "providers/worker_pool.hpp"

namespace svc::actors {

/// The pool task that renders `job` and stores its outputs, so no actor
/// thread blocks on the back end or on fsync. It sends `me` `started`,
/// `progress`, then `finished` with the outputs or `failed` (code, message);
/// `token` stops it, queued or running (a cancelled render keeps no outputs).
providers::pool_task render_task(job_actor me, const job_services& services, schema::job_record job,
                                 std::string engine, providers::cancel_token token);

} // namespace svc::actors
