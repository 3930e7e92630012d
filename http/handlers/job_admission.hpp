#pragma once
// Admitting an image job, shared by `POST /v1/images` and the
// OpenAI-compatible routes (which answer only once the job ends): the record
// as it will be stored, and the admission through the job directory with the
// idempotency record that replays the create.

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "actors/payloads.hpp"
#include "http/handlers/priced_request.hpp"
#include "http/idempotency.hpp"
#include "schema/job_record.hpp"

namespace svc::http {

/// The image job a priced request asks for, as it will be stored (`queued`).
schema::job_record new_image_job(const context_ptr& ctx, const priced_image& p);

/// Admits `job` (its price held, its rows committed) under `claim` (from
/// `claim_create` on `route`), keeping `answer` at `location` as what a repeat
/// of the create replays; `on_result` gets the admission (`replayed` when a
/// create under the same key committed first). Refusals (402, 409, 503) answer
/// the request directly.
void admit_job(const context_ptr& ctx, std::string_view route, const std::optional<idempotency_claim>& claim,
               schema::job_record job, const std::string& answer, const std::string& location,
               std::function<void(actors::admission_result&)> on_result);

} // namespace svc::http
