// GET /v1/usage?start=YYYY-MM-DD&end=YYYY-MM-DD: charged credits, images and
// videos per UTC day, every day of the range (zeros included) so clients can
// chart it as it is. The admin listener answers the same of any team
// (GET /admin/teams/{id}/usage, what `svcctl usage export` reads).
#include <boost/json.hpp>

#include "core/time_format.hpp"
#include "http/handlers/handlers.hpp"
#include "http/respond.hpp"

namespace svc::http {
namespace {

/// Longest range one request may ask for, in days.
constexpr int max_usage_days = 366;
/// Range when `start` is absent: the 30 days ending with `end`.
constexpr int default_usage_days = 30;

constexpr auto one_day = std::chrono::hours{24};

std::string date_of(core::time_point t) { return core::format_iso8601(t).substr(0, 10); }

schema::api_error bad_date(std::string param, std::string detail) {
  return schema::make_api_error(schema::error_code::invalid_parameter, {{"detail", std::move(detail)}},
                                std::move(param));
}

} // namespace

void reply_usage(const context_ptr& ctx, const std::string& team) {
  std::optional<core::time_point> start, end;
  for (auto& [name, value] : ctx->query) {
    if (name != "start" && name != "end")
      return reply_error(ctx, schema::make_api_error(schema::error_code::unknown_parameter, {}, name.substr(0, 100)));
    auto day = value.size() == 10 ? core::parse_date(value) : std::nullopt;
    if (!day)
      return reply_error(ctx, bad_date(name, "must be a date YYYY-MM-DD"));
    (name == "start" ? start : end) = day;
  }
  auto today = *core::parse_date(date_of(ctx->svc.clock->now()));
  if (!end)
    end = today;
  if (!start)
    start = *end - (default_usage_days - 1) * one_day;
  if (*start > *end)
    return reply_error(ctx, bad_date("start", "must not be after end"));
  auto days = (*end - *start) / one_day + 1;
  if (days > max_usage_days)
    return reply_error(ctx, bad_date("end", "the range may cover at most " + std::to_string(max_usage_days) + " days"));

  boost::json::array data;
  int64_t credits = 0, images = 0, videos = 0;
  for (auto day = *start; day <= *end; day += one_day) {
    auto date = date_of(day);
    auto stored = ctx->svc.tables().usage.get(team + "/" + date);
    if (stored.failed())
      return reply_storage_failure(ctx, stored.why());
    auto row = stored.has_value() ? *stored : schema::usage_record{team, date, 0, 0, 0};
    credits += row.credits_charged;
    images += row.images;
    videos += row.videos;
    data.push_back(boost::json::object{{"date", date},
                                       {"credits_charged", row.credits_charged},
                                       {"images", row.images},
                                       {"videos", row.videos}});
  }
  reply_json(ctx, 200,
             boost::json::object{{"object", "usage"},
                                 {"start", date_of(*start)},
                                 {"end", date_of(*end)},
                                 {"data", std::move(data)},
                                 {"total", boost::json::object{{"credits_charged", credits},
                                                               {"images", images},
                                                               {"videos", videos}}}});
}

void get_usage(const context_ptr& ctx) { reply_usage(ctx, ctx->team->id); }

} // namespace svc::http
