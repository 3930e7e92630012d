#pragma once
// What create and estimate share: the body validated by decisions.md's rules,
// the model resolved, the adapters resolved against the catalogue, and the
// price from the model's prices or the applied version's table. One function per kind, so an estimate always equals the hold.

#include <functional>
#include <optional>
#include <string>

#include <boost/json/object.hpp>

#include "http/request_context.hpp"
#include "schema/generation_request.hpp"
#include "schema/lora_resolution.hpp"
#include "schema/model_catalogue.hpp"
#include "schema/pricing.hpp"

namespace svc::http {

/// A generation request ready to admit.
template <class Request>
struct priced_request {
  boost::json::object body;         ///< as parsed, for the idempotency fingerprint
  Request request;                  ///< with the model's defaults filled in
  const schema::model_entry* model = nullptr; ///< resolved; lives as long as the runtime
  schema::lora_resolution loras;
  schema::price_quote price;
};

using priced_image = priced_request<schema::image_request>;
using priced_video = priced_request<schema::video_request>;

/// Reads `POST /v1/images` (or its estimate); nullopt after answering the 400/415.
std::optional<priced_image> read_priced_image(const context_ptr& ctx);

/// How a route answers a refused request (a route that speaks another API's field names renames them).
using refusal_answer = std::function<void(const schema::api_error&)>;

/// Judges and prices `body`, a `POST /v1/images` body that the route made
/// from its own (the OpenAI-compatible routes); nullopt after `refuse`
/// answered the 400, or after a 503 when the store failed.
std::optional<priced_image> price_image_body(const context_ptr& ctx, boost::json::object body,
                                             const refusal_answer& refuse);

/// Reads `POST /v1/videos`; nullopt after answering the 400/415.
std::optional<priced_video> read_priced_video(const context_ptr& ctx);

} // namespace svc::http
