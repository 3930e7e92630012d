#pragma once
// The public API's handlers, one file per resource: each decodes, asks the
// tables or an actor, and encodes. No business rule lives here.

#include "http/request_context.hpp"

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
// api_keys.cpp
void list_api_keys(const context_ptr& ctx);
void rotate_api_key(const context_ptr& ctx);
// images.cpp
void create_image(const context_ptr& ctx);
void estimate_image(const context_ptr& ctx);

// image_reads.cpp
void get_image(const context_ptr& ctx);
void list_images(const context_ptr& ctx);
void cancel_job(const context_ptr& ctx);

// usage.cpp
void get_usage(const context_ptr& ctx);

// outputs.cpp
void get_output(const context_ptr& ctx);

// docs.cpp
void get_error_docs(const context_ptr& ctx);

} // namespace svc::http
