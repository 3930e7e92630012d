#include "http/list_params.hpp"

#include <algorithm>

#include "core/ids.hpp"
#include "http/respond.hpp"
#include "schema/views.hpp"

namespace svc::http {
using schema::error_code;

std::optional<list_params> read_list_params(const context_ptr& ctx, std::string_view id_prefix,
                                            std::initializer_list<std::string_view> filters) {
  list_params out;
  for (auto& [name, value] : ctx->query) {
    if (name == "limit") {
      bool digits = !value.empty() && value.size() <= 3 && value.find_first_not_of("0123456789") == std::string::npos;
      auto n = digits ? std::stoul(value) : 0;
      if (n < 1 || n > 100) {
        reply_error(ctx, schema::make_api_error(error_code::invalid_parameter,
                                                {{"detail", "must be an integer between 1 and 100"}}, "limit"));
        return std::nullopt;
      }
      out.limit = n;
    } else if (name == "starting_after") {
      if (!core::has_id_shape(value, id_prefix)) {
        reply_error(ctx, schema::make_api_error(error_code::invalid_parameter,
                                                {{"detail", "must be an id starting with " + std::string{id_prefix} + "_"}},
                                                "starting_after"));
        return std::nullopt;
      }
      out.starting_after = value;
    } else if (std::find(filters.begin(), filters.end(), name) != filters.end()) {
      out.filters[name] = value;
    } else {
      reply_error(ctx, schema::make_api_error(error_code::unknown_parameter, {}, name.substr(0, 100)));
      return std::nullopt;
    }
  }
  return out;
}

namespace {

persistence::read_result<boost::json::value> team_list_page(const context_ptr& ctx, const std::string& team_id,
                                                            const persistence::index_table& index,
                                                            std::string_view id_prefix, const list_params& params,
                                                            const list_item& item) {
  using page = persistence::read_result<boost::json::value>;
  auto team_prefix = team_id + "/";
  persistence::scan_range range{team_prefix + std::string{id_prefix} + "_",
                                params.starting_after.empty() ? "" : team_prefix + params.starting_after, true};
  auto budget = ctx->svc.cfg.list_scan_limit;
  std::size_t examined = 0;
  boost::json::array data;
  while (true) {
    bool keys_more = false;
    auto read = index.keys(range, std::min(params.limit + 1, budget - examined), keys_more);
    if (read.failed())
      return page::error(read.why());
    auto& keys = *read;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      auto id = std::string_view{keys[i]}.substr(team_prefix.size());
      auto view = item(id);
      if (view.failed())
        return view;
      ++examined;
      if (view.has_value() && data.size() == params.limit)
        return schema::list_view(std::move(data), true);
      if (view.has_value())
        data.push_back(std::move(*view));
      bool rows_follow = i + 1 < keys.size() || keys_more;
      if (examined == budget && rows_follow)
        return schema::list_view(std::move(data), true, id);
    }
    if (!keys_more || keys.empty())
      return schema::list_view(std::move(data), false);
    range.start_after = keys.back();
  }
}

} // namespace

void reply_team_list(const context_ptr& ctx, const persistence::index_table& index, std::string_view id_prefix,
                     const list_params& params, const list_item& item) {
  reply_team_list(ctx, ctx->team->id, index, id_prefix, params, item);
}

void reply_team_list(const context_ptr& ctx, const std::string& team_id, const persistence::index_table& index,
                     std::string_view id_prefix, const list_params& params, const list_item& item) {
  auto page = team_list_page(ctx, team_id, index, id_prefix, params, item);
  if (page.failed())
    return reply_storage_failure(ctx, page.why());
  reply_json(ctx, 200, *page);
}

} // namespace svc::http
