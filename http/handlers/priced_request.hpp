#pragma once
// What create and estimate share: the body validated by decisions.md's rules,
// the adapters resolved against the catalogue, and the price from the applied
// version's table. One function, so an estimate always equals the hold.

#include <optional>
#include <string>

#include <boost/json/object.hpp>

#include "http/request_context.hpp"
#include "schema/generation_request.hpp"
#include "schema/lora_resolution.hpp"
#include "schema/pricing.hpp"

namespace svc::http {

struct priced_image {
  boost::json::object body;         ///< as parsed, for the idempotency fingerprint
  schema::image_request request;
  schema::lora_resolution loras;
  schema::price_quote price;
};

/// Reads `POST /v1/images` (or its estimate); nullopt after answering the 400/415.
std::optional<priced_image> read_priced_image(const context_ptr& ctx);

} // namespace svc::http
