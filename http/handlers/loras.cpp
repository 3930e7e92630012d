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
  bool more = false;
  persistence::scan_range range;
  range.reverse = true;
  range.start_after = params->starting_after;
  boost::json::array data;
  auto loras = ctx->svc.tables().loras.page(range, params->limit, more);
  if (loras.failed())
    return reply_storage_failure(ctx, loras.why());
  for (auto& l : *loras)
    data.push_back(schema::lora_view(l));
  reply_json(ctx, 200, schema::list_view(std::move(data), more));
}

} // namespace svc::http
