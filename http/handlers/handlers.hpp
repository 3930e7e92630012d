#pragma once
// The public API's handlers, one file per resource: each decodes, asks the
// tables or an actor, and encodes. No business rule lives here.

#include <optional>
#include <string>

#include "http/request_context.hpp"
#include "schema/file_record.hpp"
#include "schema/webhook_records.hpp"

namespace svc::http {

// team.cpp
void get_team(const context_ptr& ctx);
void patch_team(const context_ptr& ctx);
// balance.cpp
void get_balance(const context_ptr& ctx);
// pricing.cpp
void get_pricing(const context_ptr& ctx);
// loras.cpp
void list_loras(const context_ptr& ctx);
void list_models(const context_ptr& ctx);
// api_keys.cpp
void list_api_keys(const context_ptr& ctx);
void rotate_api_key(const context_ptr& ctx);
void revoke_api_key(const context_ptr& ctx);
// job_create.cpp
void create_image(const context_ptr& ctx);
void create_video(const context_ptr& ctx);
void estimate_image(const context_ptr& ctx);

// openai_images.cpp
void create_openai_image(const context_ptr& ctx);
void edit_openai_image(const context_ptr& ctx);

// job_reads.cpp
void get_image(const context_ptr& ctx);
void get_video(const context_ptr& ctx);
void list_images(const context_ptr& ctx);
void list_videos(const context_ptr& ctx);
void cancel_job(const context_ptr& ctx);
void cancel_video(const context_ptr& ctx);
/// Cancels the image or video `id` (an `img_`/`vid_` id) of `team_id` through
/// the job directory and answers the job once its refund is durable (also
/// past the request deadline); 409 when it ended otherwise first. For the
/// cancel routes and the admin's POST /admin/jobs/{id}/cancel.
void cancel_team_job(const context_ptr& ctx, const std::string& team_id, const std::string& id);

// usage.cpp
void get_usage(const context_ptr& ctx);
/// The usage of `team` over the request's `start`..`end` (GET /v1/usage's answer, for any team).
void reply_usage(const context_ptr& ctx, const std::string& team);

// outputs.cpp
void get_output(const context_ptr& ctx);

// webhook_endpoints.cpp
void create_webhook_endpoint(const context_ptr& ctx);
void list_webhook_endpoints(const context_ptr& ctx);
void get_webhook_endpoint(const context_ptr& ctx);
void patch_webhook_endpoint(const context_ptr& ctx);
void delete_webhook_endpoint(const context_ptr& ctx);
void rotate_webhook_secret(const context_ptr& ctx);
/// Shared with webhook_actions.cpp: the path's `{id}` when it has the shape of
/// a `we_` id; nullopt after answering 404 `resource_not_found`.
std::optional<std::string> endpoint_path_id(const context_ptr& ctx);
/// Shared with webhook_actions.cpp: the team's endpoint named by `{id}`, or
/// nullopt after answering 404 (unknown, another team's, not a `we_` id) or
/// 503 (the store failed).
std::optional<schema::webhook_endpoint_record> find_team_endpoint(const context_ptr& ctx);

// webhook_actions.cpp
void test_webhook_endpoint(const context_ptr& ctx);
void replay_webhook_endpoint(const context_ptr& ctx);
void list_webhook_deliveries(const context_ptr& ctx);

// events.cpp
void list_events(const context_ptr& ctx);
void get_event(const context_ptr& ctx);

// files.cpp
void create_file(const context_ptr& ctx);
void get_file(const context_ptr& ctx);
void list_files(const context_ptr& ctx);
/// Shared with priced_request.cpp: the caller's team's file `id` while it
/// lives; nullopt for an unknown, expired or another team's file (or no `file_` id).
persistence::read_result<schema::file_record> find_team_file(const context_ptr& ctx, const std::string& id);

// docs.cpp
void get_error_docs(const context_ptr& ctx);
void get_api_reference(const context_ptr& ctx);
void get_openapi_yaml(const context_ptr& ctx);

} // namespace svc::http
