#include <boost/json.hpp>

#include "http/handlers/handlers.hpp"
#include "http/list_params.hpp"
#include "http/respond.hpp"
#include "schema/views.hpp"

namespace svc::http {

void list_loras(const context_ptr& ctx) {
  auto params = read_list_params(ctx, "lora");
  if (!params)
    return;
  persistence::scan_range range;
  range.reverse = true;
  range.start_after = params->starting_after;
  reply_record_page(ctx, ctx->svc.tables().loras, range, params->limit, schema::lora_view);
}

} // namespace svc::http
