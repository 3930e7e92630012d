#include <map>

#include "core/build_info.hpp"
#include "core/metric_catalogue.hpp"
#include "core/process_stats.hpp"
#include "http/actor_call.hpp"
#include "http/admin/admin_handlers.hpp"
#include "http/respond.hpp"
#include "providers/worker_pool.hpp"

namespace svc::http {
namespace {

// The gauges that are read, not updated: queues, the store, the process.
void sample(const services& svc) {
  auto& m = core::metrics::svc();
  auto& pool = svc.runtime.workers();
  m.jobs_queued.get().set(static_cast<double>(svc.runtime.queued_renders()));
  m.renders_running.get().set(static_cast<double>(pool.running()));
  m.uploads_in_flight.get().set(static_cast<double>(svc.uploads.in_flight()));
  m.webhook_retry_backlog.get().set(static_cast<double>(svc.env.count(persistence::table::delivery_tasks)));
  m.mail_queued.get().set(static_cast<double>(svc.env.count(persistence::table::mail_queue)));
  auto use = svc.env.usage();
  m.store_map_used_ratio.get().set(use.ratio());
  m.store_map_bytes.get().set(static_cast<double>(use.map_bytes));
  m.store_map_used_bytes.get().set(static_cast<double>(use.used_bytes));
  m.store_map_reserve_bytes.get().set(static_cast<double>(use.reserve_bytes));
  auto blobs = svc.runtime.stored_blobs();
  m.blob_bytes.get().set(static_cast<double>(blobs.bytes));
  m.blobs.get().set(static_cast<double>(blobs.count));
  m.uptime_seconds.get().set(std::chrono::duration<double>(std::chrono::steady_clock::now() - svc.started).count());
  m.build_info.with({std::string{core::build_version()}, std::string{core::build_commit()}}).set(1);
  if (auto p = core::read_process_stats()) {
    m.process_cpu_seconds.get().reach(p->cpu_seconds);
    m.process_resident_memory_bytes.get().set(p->resident_bytes);
    m.process_virtual_memory_bytes.get().set(p->virtual_bytes);
    m.process_open_fds.get().set(p->open_fds);
    m.process_max_fds.get().set(p->max_fds);
    m.process_start_time_seconds.get().set(p->start_time_seconds);
  }
}

// Actors and their queued messages by kind, from the registry's list of every live actor.
void sample_actors(const std::vector<actors::actor_summary>& rows) {
  auto& m = core::metrics::svc();
  std::map<std::string, std::pair<double, double>> by_kind; // kind -> actors, mailbox messages
  for (auto& r : rows) {
    auto& k = by_kind[r.kind];
    k.first += 1;
    k.second += static_cast<double>(r.mailbox);
  }
  // A kind with no actor left reads 0, not its last count.
  m.actors.for_each([](auto&, auto& g) { g.set(0); });
  m.actor_mailbox_depth.for_each([](auto&, auto& g) { g.set(0); });
  for (auto& [kind, counts] : by_kind) {
    m.actors.with({kind}).set(counts.first);
    m.actor_mailbox_depth.with({kind}).set(counts.second);
  }
}

} // namespace

void get_metrics(const context_ptr& ctx) {
  actors::actor_filter every;
  every.limit = std::numeric_limits<uint64_t>::max();
  ask<std::vector<actors::actor_summary>>(
    ctx, ctx->svc.actors().registry,
    [ctx](std::vector<actors::actor_summary>& rows) {
      sample(ctx->svc);
      sample_actors(rows);
      reply_body(ctx, 200, core::metrics::svc().all.render(), "text/plain; version=0.0.4; charset=utf-8");
    },
    actors::list_atom::value, every);
}

} // namespace svc::http
