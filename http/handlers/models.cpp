// GET /v1/models: the catalogue of this node, priced at the applied version.
#include "http/handlers/handlers.hpp"
#include "http/respond.hpp"
#include "schema/model_view.hpp"

namespace svc::http {

void list_models(const context_ptr& ctx) {
  reply_json(ctx, 200, schema::model_list_view(ctx->svc.runtime.models(), ctx->version));
}

} // namespace svc::http
