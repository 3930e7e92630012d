#include "http/handlers/handlers.hpp"
#include "http/respond.hpp"
#include "schema/pricing.hpp"
#include "schema/views.hpp"

namespace svc::http {

void get_pricing(const context_ptr& ctx) { reply_json(ctx, 200, schema::pricing_view(schema::pricing_for(ctx->version))); }

} // namespace svc::http
