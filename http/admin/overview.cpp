#include <cmath>

#include <boost/json.hpp>

#include "actors/bucket.hpp"
#include "core/time_format.hpp"
#include "http/actor_call.hpp"
#include "http/admin/admin_handlers.hpp"
#include "http/respond.hpp"
#include "http/stages/stages.hpp"

namespace svc::http {
namespace {
namespace json = boost::json;

// Rows per list: the console shows a screenful, not an export (svcctl lists all).
constexpr std::size_t overview_rows = 200;

json::value optional_time(const std::optional<core::time_point>& t) {
  return t ? json::value(core::format_iso8601(*t)) : json::value(nullptr);
}

// Bucket levels from the snapshots the overview has just had every live bucket
// write (a bucket writes only when it changed), refilled to now: one hop to
// the bucket directory instead of one per team, and no idle team's bucket woken.
json::array bucket_levels(const schema::team_record& team, const std::optional<schema::bucket_snapshot>& snapshot,
                          int64_t now_ms) {
  json::array out;
  for (std::size_t i = 0; i < schema::team_bucket_count; ++i) {
    auto cls = static_cast<schema::bucket_class>(i);
    auto bucket = actors::restore_bucket(cls, team.rate_limit_overrides, snapshot, now_ms);
    out.push_back({{"bucket", schema::to_string(cls)},
                   {"tokens", static_cast<int64_t>(std::floor(bucket.level(now_ms)))},
                   {"capacity", static_cast<int64_t>(bucket.limits().capacity)}});
  }
  return out;
}

// Newest teams first, each with its balance and bucket levels; false when the store failed.
bool list_teams(const context_ptr& ctx, json::object& into) {
  auto& t = ctx->svc.tables();
  bool more = false;
  auto teams = t.teams.page({{}, {}, true}, overview_rows, more);
  if (teams.failed()) {
    reply_storage_failure(ctx, teams.why());
    return false;
  }
  auto now_ms = core::to_unix_ms(ctx->svc.clock->now());
  json::array data;
  for (auto& team : *teams) {
    auto balance = t.balances.get(team.id);
    auto snapshot = t.buckets.get(team.id);
    if (balance.failed() || snapshot.failed()) {
      reply_storage_failure(ctx, balance.failed() ? balance.why() : snapshot.why());
      return false;
    }
    std::optional<schema::bucket_snapshot> snap;
    if (snapshot.has_value())
      snap = *snapshot;
    data.push_back({{"id", team.id},
                    {"name", team.name},
                    {"disabled_at", team.disabled_at ? json::value(core::format_iso8601(*team.disabled_at))
                                                     : json::value(nullptr)},
                    {"available", balance.has_value() ? (*balance).available : 0},
                    {"held", balance.has_value() ? (*balance).held : 0},
                    {"buckets", bucket_levels(team, snap, now_ms)}});
  }
  into["teams"] = {{"data", std::move(data)}, {"has_more", more}};
  return true;
}

// Newest endpoints first with their failure counts; false when the store failed.
bool list_endpoints(const context_ptr& ctx, json::object& into) {
  bool more = false;
  auto endpoints = ctx->svc.tables().webhook_endpoints.page({{}, {}, true}, overview_rows, more);
  if (endpoints.failed()) {
    reply_storage_failure(ctx, endpoints.why());
    return false;
  }
  json::array data;
  for (auto& e : *endpoints)
    data.push_back({{"id", e.id},
                    {"team_id", e.team_id},
                    {"url", e.url},
                    {"is_active", e.is_active},
                    {"consecutive_failures", e.consecutive_failures},
                    {"last_success_at", optional_time(e.last_success_at)},
                    {"last_failure_at", optional_time(e.last_failure_at)},
                    {"disabled_at", optional_time(e.disabled_at)}});
  into["endpoints"] = {{"data", std::move(data)}, {"has_more", more}};
  return true;
}

json::array recent_5xx(const context_ptr& ctx) {
  json::array out;
  for (auto& a : ctx->svc.recent_5xx.newest_first())
    out.push_back({{"at", core::format_iso8601(a.at)},
                   {"request_id", a.request_id},
                   {"method", a.method},
                   {"route", a.route},
                   {"status", a.status},
                   {"code", a.code.empty() ? json::value(nullptr) : json::value(a.code)}});
  return out;
}

} // namespace

void get_overview(const context_ptr& ctx) {
  if (!ctx->query.empty())
    return reply_error(ctx, schema::make_api_error(schema::error_code::unknown_parameter, {},
                                                   ctx->query.front().first.substr(0, 100)));
  // Levels as of now: the takes decided from bucket copies reach their buckets
  // ahead of the snapshot. A snapshot that could not be written leaves the
  // previous one: the levels are then older, which an overview can live with.
  charge_buckets(ctx->svc);
  ask<bool>(
    ctx, ctx->svc.actors().buckets,
    [ctx](bool) {
      auto& workers = ctx->svc.runtime.workers();
      json::object body{
        {"object", "overview"},
        {"generated_at", core::format_iso8601(ctx->svc.clock->now())},
        {"renders", {{"queued", ctx->svc.runtime.queued_renders()}, {"running", workers.running()}, {"workers", workers.threads()}}}};
      if (!list_teams(ctx, body) || !list_endpoints(ctx, body))
        return;
      body["recent_5xx"] = recent_5xx(ctx);
      reply_json(ctx, 200, body);
    },
    actors::snapshot_atom::value);
}

} // namespace svc::http
