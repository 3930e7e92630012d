// The public API's route table: every route's method, path, scope and bucket,
// declared once.
#include "http/handlers/handlers.hpp"
#include "http/pipeline.hpp"

namespace svc::http {

std::vector<route> api_routes() {
  using v = beast::http::verb;
  using s = schema::scope;
  using b = schema::bucket_class;
  return {
    {v::get, "/docs/errors", s::none, b::anonymous, get_error_docs, "error catalogue page"},
    {v::get, "/docs", s::none, b::anonymous, get_api_reference, "API reference page"},
    {v::get, "/openapi.yaml", s::none, b::anonymous, get_openapi_yaml, "the OpenAPI contract"},
    {v::get, "/v1/team", s::read, b::reads, get_team, "the caller's team"},
    {v::patch, "/v1/team", s::full, b::reads, patch_team, "set balance_low_threshold"},
    {v::post, "/v1/images", s::write, b::images_post, create_image, "create an image job"},
    {v::post, "/v1/images/estimate", s::write, b::reads, estimate_image, "price of a create, nothing held"},
    {v::post, "/v1/images/generations", s::write, b::images_post, create_openai_image,
     "OpenAI-compatible create, answered once the job ends"},
    {v::post, "/v1/images/edits", s::write, b::images_post, edit_openai_image,
     "OpenAI-compatible edit of an uploaded image (multipart/form-data)", true},
    {v::get, "/v1/images", s::read, b::reads, list_images, "the team's images, newest first"},
    {v::get, "/v1/images/{id}", s::read, b::reads, get_image, "one image (Prefer: wait=N)"},
    {v::post, "/v1/images/{id}/cancel", s::write, b::images_post, cancel_job, "cancel an image or video job"},
    {v::post, "/v1/videos", s::write, b::images_post, create_video, "create a video job"},
    {v::get, "/v1/videos", s::read, b::reads, list_videos, "the team's videos, newest first"},
    {v::get, "/v1/videos/{id}", s::read, b::reads, get_video, "one video (Prefer: wait=N)"},
    {v::post, "/v1/videos/{id}/cancel", s::write, b::images_post, cancel_video, "cancel a video job"},
    {v::get, "/v1/outputs/{id}/{index}", s::none, b::anonymous, get_output, "an output's bytes (signed URL)"},
    {v::post, "/v1/files", s::write, b::files_post, create_file, "upload an image (multipart/form-data)", true},
    {v::get, "/v1/files", s::read, b::reads, list_files, "the team's live files, newest first"},
    {v::get, "/v1/files/{id}", s::read, b::reads, get_file, "one file"},
    {v::get, "/v1/balance", s::read, b::reads, get_balance, "available and held credits"},
    {v::get, "/v1/usage", s::read, b::reads, get_usage, "charged usage per UTC day"},
    {v::get, "/v1/pricing", s::read, b::reads, get_pricing, "price table of the applied version"},
    {v::get, "/v1/loras", s::read, b::reads, list_loras, "the LoRA catalogue"},
    {v::get, "/v1/models", s::read, b::reads, list_models, "the models this server renders with"},
    {v::get, "/v1/api_keys", s::full, b::reads, list_api_keys, "the team's API keys"},
    {v::post, "/v1/api_keys/{id}/rotate", s::full, b::reads, rotate_api_key, "rotate a key"},
    {v::post, "/v1/api_keys/{id}/revoke", s::full, b::reads, revoke_api_key, "revoke a key at once"},
    {v::post, "/v1/webhook_endpoints", s::write, b::webhook_endpoints_post, create_webhook_endpoint,
     "register a receiver (secret shown once)"},
    {v::get, "/v1/webhook_endpoints", s::read, b::reads, list_webhook_endpoints, "the team's endpoints, newest first"},
    {v::get, "/v1/webhook_endpoints/{id}", s::read, b::reads, get_webhook_endpoint, "one endpoint"},
    {v::patch, "/v1/webhook_endpoints/{id}", s::write, b::webhook_endpoints_post, patch_webhook_endpoint,
     "change url, events, metadata or is_active"},
    {v::delete_, "/v1/webhook_endpoints/{id}", s::write, b::webhook_endpoints_post, delete_webhook_endpoint,
     "delete an endpoint"},
    {v::post, "/v1/webhook_endpoints/{id}/rotate_secret", s::write, b::webhook_endpoints_post, rotate_webhook_secret,
     "new signing secret (shown once)"},
    {v::post, "/v1/webhook_endpoints/{id}/test", s::write, b::webhooks_test, test_webhook_endpoint,
     "send a synthetic event"},
    {v::post, "/v1/webhook_endpoints/{id}/replay", s::write, b::webhook_endpoints_post, replay_webhook_endpoint,
     "redeliver missed events since a time"},
    {v::get, "/v1/webhook_endpoints/{id}/deliveries", s::read, b::reads, list_webhook_deliveries,
     "an endpoint's delivery attempts, newest first"},
    {v::get, "/v1/events", s::read, b::reads, list_events, "the team's events, newest first"},
    {v::get, "/v1/events/{id}", s::read, b::reads, get_event, "one event envelope"},
  };
}

} // namespace svc::http
