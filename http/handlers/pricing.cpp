#include "http/handlers/handlers.hpp"
#include "http/respond.hpp"
#include "schema/model_view.hpp"
#include "schema/pricing.hpp"
#include "schema/views.hpp"

namespace svc::http {

void get_pricing(const context_ptr& ctx) {
  auto view = schema::pricing_view(schema::pricing_for(ctx->version));
  // Without models of their own prices the table is what it always was.
  if (auto models = schema::model_prices_view(ctx->svc.runtime.models(), ctx->version); !models.empty())
    view.as_object()["models"] = std::move(models);
  reply_json(ctx, 200, view);
}

} // namespace svc::http
