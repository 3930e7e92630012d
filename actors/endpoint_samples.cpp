#include "actors/endpoint_samples.hpp"

#include <boost/json.hpp>

#include "actors/endpoint_deliveries.hpp"
#include "actors/endpoint_writes.hpp"
#include "core/ids.hpp"
#include "core/shard.hpp"
#include "persistence/webhook_rows.hpp"
#include "schema/event_types.hpp"
#include "schema/job_view.hpp"
#include "schema/views.hpp"
#include "schema/webhook_views.hpp"

namespace svc::actors {
namespace {

using schema::delivery_task;
using schema::webhook_endpoint_record;

// What a test fire carries: a sample of the type's `data`, marked by the
// envelope's `synthetic: true`.
boost::json::value sample_data(const context& ctx, const webhook_endpoint_record& e, std::string_view type,
                               const std::string& version) {
  if (type == schema::usage_balance_low) {
    auto team = ctx.tables->teams.get(e.team_id);
    auto balance = ctx.tables->balances.get(e.team_id);
    return schema::balance_view(balance.has_value() ? *balance : schema::balance_record{e.team_id, 0, 0, {}},
                                team.has_value() ? team->balance_low_threshold : 0);
  }
  if (type == schema::webhook_endpoint_disabled)
    return schema::webhook_endpoint_view(e);
  // image.* and video.*: a whole record of the type's outcome, as GET shows one.
  schema::job_record sample;
  bool video = type.substr(0, 6) == "video.";
  sample.kind = video ? schema::job_kind::video : schema::job_kind::image;
  sample.id = core::make_id(schema::id_prefix(sample.kind), core::shard_of_team(e.team_id));
  sample.team_id = e.team_id;
  auto outcome = type.substr(type.find('.') + 1);
  sample.status = outcome == "completed"  ? schema::job_status::succeeded
                  : outcome == "failed"   ? schema::job_status::failed
                                          : schema::job_status::cancelled;
  sample.prompt = "Svc test fire";
  sample.width = video ? 768 : 1024;
  sample.height = video ? 432 : 1024;
  sample.duration_seconds = video ? 4 : 0;
  sample.fps = video ? 24 : 0;
  sample.api_version = version;
  sample.cost_status = sample.status == schema::job_status::succeeded ? schema::hold_status::charged
                                                                      : schema::hold_status::refunded;
  if (sample.status == schema::job_status::failed)
    sample.failure = schema::job_failure{"provider_error", "a sample failure (test fire)"};
  sample.progress = sample.status == schema::job_status::succeeded ? 1 : 0;
  sample.created_at = ctx.clock->now();
  sample.completed_at = sample.created_at;
  auto base = ctx.urls ? ctx.urls->base_url : std::string{};
  auto secret = ctx.urls ? ctx.urls->url_secret : std::string{};
  return schema::job_view(sample, {base, secret});
}

} // namespace

caf::result<test_fire> fire_test(endpoint_self self, const context& ctx, const endpoint_services& services,
                                 const std::string& type, const std::string& version,
                                 const schema::correlation& cause) {
  auto& r = self->state.record;
  auto now = ctx.clock->now();
  auto event = schema::mint_event(r.team_id, type, version, true, now, sample_data(ctx, r, type, version), cause);
  persistence::write_batch batch;
  persistence::put_event(*ctx.tables, batch, event, ctx.cfg->event_retention, persistence::fan_out::done);
  test_fire answer{r.id, event.id, r.is_active};
  auto promise = self->make_response_promise<test_fire>();
  endpoint_write write;
  write.rows = std::move(batch);
  std::optional<delivery_task> task;
  if (r.is_active) {
    task = delivery_task{core::make_ulid(), r.id, event.id, 1, now};
    persistence::put_task(*ctx.tables, write.rows, *task);
  }
  // The task joins memory once durable: a failed commit leaves nothing
  // behind. One the endpoint was disabled meanwhile is dropped like its others.
  write.after = [=]() mutable {
    if (task && self->state.record.is_active) {
      self->state.tasks.emplace(task->id, *task);
      schedule(self, ctx, services, *task);
    } else if (task) {
      endpoint_write drop;
      persistence::erase_task(*ctx.tables, drop.rows, *task);
      write_in_order(self, ctx, std::move(drop));
    }
    promise.deliver(answer);
  };
  write.refused = [=](const caf::error& err) mutable { promise.deliver(err); };
  write_in_order(self, ctx, std::move(write));
  return promise;
}

} // namespace svc::actors
