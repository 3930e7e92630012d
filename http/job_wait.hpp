#pragma once
// Waiting for a job's end without holding an asio thread (`Prefer: wait` on
// `GET /v1/images/{id}`, the OpenAI-compatible routes): the job actor answers
// once the job is terminal, the caller's bound cuts the wait short, and a
// drain answers every wait at once with the job as it is then.

#include <functional>
#include <string>
#include <string_view>

#include <caf/duration.hpp>

#include "http/request_context.hpp"
#include "schema/job_record.hpp"

namespace svc::http {

/// Waits at most `wait` for the caller's team's job `id` to end; `settled`
/// runs on an asio thread with the terminal record, or with the row as
/// stored when the wait ran out, a drain began (or had begun) or the job had
/// its most waiters (`actors::max_job_waiters`). A job that is gone meanwhile
/// answers 404 `resource_not_found`, a store that failed its read 503.
void await_job(const context_ptr& ctx, const std::string& id, caf::duration wait,
               std::function<void(const schema::job_record&)> settled);

/// 404 `resource_not_found` (param `id`) for the job `id` of `kind` (`image`, `video`).
void reply_job_not_found(const context_ptr& ctx, std::string_view kind, const std::string& id);

} // namespace svc::http
