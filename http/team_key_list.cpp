#include "http/team_key_list.hpp"

#include <boost/json.hpp>

#include "http/respond.hpp"
#include "schema/views.hpp"

namespace svc::http {

void reply_team_keys(const context_ptr& ctx, const std::string& team_id, const list_params& params) {
  auto& tables = ctx->svc.tables();
  auto prefix = team_id + "/";
  persistence::scan_range range{prefix, params.starting_after.empty() ? "" : prefix + params.starting_after, true};
  bool more = false;
  auto entries = tables.api_keys_by_team.keys(range, params.limit, more);
  if (entries.failed())
    return reply_storage_failure(ctx, entries.why());
  boost::json::array data;
  for (auto& entry : *entries) {
    auto key = tables.api_keys.get(entry.substr(prefix.size()));
    if (key.failed())
      return reply_storage_failure(ctx, key.why());
    if (key.has_value())
      data.push_back(schema::api_key_view(*key));
  }
  reply_json(ctx, 200, schema::list_view(std::move(data), more));
}

} // namespace svc::http
