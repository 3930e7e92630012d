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
    {v::get, "/v1/team", s::read, b::reads, get_team, "the caller's team"},
    {v::patch, "/v1/team", s::full, b::reads, patch_team, "set balance_low_threshold"},
    {v::post, "/v1/images", s::write, b::images_post, create_image, "create an image job"},
    {v::post, "/v1/images/estimate", s::write, b::reads, estimate_image, "price of a create, nothing held"},
    {v::get, "/v1/images", s::read, b::reads, list_images, "the team's images, newest first"},
    {v::get, "/v1/images/{id}", s::read, b::reads, get_image, "one image (Prefer: wait=N)"},
    {v::post, "/v1/images/{id}/cancel", s::write, b::images_post, cancel_job, "cancel an image or video job"},
    {v::get, "/v1/outputs/{id}/{index}", s::none, b::anonymous, get_output, "an output's bytes (signed URL)"},
    {v::get, "/v1/balance", s::read, b::reads, get_balance, "available and held credits"},
    {v::get, "/v1/usage", s::read, b::reads, get_usage, "charged usage per UTC day"},
    {v::get, "/v1/pricing", s::read, b::reads, get_pricing, "price table of the applied version"},
    {v::get, "/v1/loras", s::read, b::reads, list_loras, "the LoRA catalogue"},
    {v::get, "/v1/api_keys", s::full, b::reads, list_api_keys, "the team's API keys"},
    {v::post, "/v1/api_keys/{id}/rotate", s::full, b::reads, rotate_api_key, "rotate a key"},
  };
}

} // namespace svc::http
