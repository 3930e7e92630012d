#include <boost/json.hpp>

#include "core/log.hpp"
#include "http/actor_call.hpp"
#include "http/admin/admin_handlers.hpp"
#include "http/json_body.hpp"
#include "http/respond.hpp"
#include "schema/field_reader.hpp"

namespace svc::http {

void get_healthz(const context_ptr& ctx) { reply_json(ctx, 200, {{"status", "ok"}}); }

// Ready once the store answers reads and the job and webhook directories
// have brought back what they found at start (queued jobs, pending
// deliveries): until then 503 `recovering`, with how far they got. The API
// answers meanwhile; this is for a load balancer that should wait, and asks
// every few seconds, so its 503s stay out of the console's recent 5xx.
void get_readyz(const context_ptr& ctx) {
  ctx->reports_readiness = true;
  if (ctx->svc.draining)
    return reply_json(ctx, 503, {{"status", "draining"}});
  if (auto probe = ctx->svc.env.probe(); !probe.ok()) {
    core::log_error("readyz", "store read failed: " + probe.message);
    return reply_json(ctx, 503, {{"status", "storage_unavailable"}});
  }
  using actors::recovery_status;
  auto& a = ctx->svc.actors();
  ask<recovery_status>(
    ctx, a.jobs,
    [ctx, webhooks = a.webhooks](recovery_status& jobs) {
      ask<recovery_status>(
        ctx, webhooks,
        [ctx, jobs](recovery_status& deliveries) {
          boost::json::object recovered{{"jobs", jobs.recovered}, {"deliveries", deliveries.recovered}};
          bool done = jobs.done && deliveries.done;
          reply_json(ctx, done ? 200 : 503, {{"status", done ? "ok" : "recovering"}, {"recovered", recovered}});
        },
        actors::ready_atom::value);
    },
    actors::ready_atom::value);
}

// `{"crash_kind": ..., "crash_id": ...}`: the live actors of that kind and
// id (as `/admin/actors` lists them) throw. Answers how many were told.
void crash_actors(const context_ptr& ctx, std::string kind, std::string id) {
  core::log_warn("faults", "crashing the " + kind + " actor " + id);
  ask<int64_t>(
    ctx, ctx->svc.actors().registry,
    [ctx](int64_t told) { reply_json(ctx, 200, {{"crashed", told}}); }, actors::fault_atom::value,
    std::move(kind), std::move(id));
}

void set_faults(const context_ptr& ctx) {
  if (!ctx->svc.cfg.fault_injection)
    return reply_error(ctx, schema::make_api_error(schema::error_code::route_not_found));
  auto body = read_json_object(ctx, {"store_reads", "store_commit_delay_ms", "crash_kind", "crash_id"});
  if (!body)
    return;
  schema::field_reader f{*body, schema::json_discipline::strict};
  auto reads = f.text("store_reads", 0, 8);
  auto delay = f.integer("store_commit_delay_ms", 0, 600000);
  auto kind = f.text("crash_kind", 0, 64);
  auto id = f.text("crash_id", kind ? 1 : 0, 256, kind.has_value());
  if (f.error())
    return reply_error(ctx, *f.error());
  if (kind)
    return crash_actors(ctx, std::move(*kind), std::move(*id));
  if ((reads && *reads != "fail" && *reads != "ok") || (!reads && !delay))
    return reply_error(ctx, schema::make_api_error(schema::error_code::invalid_parameter,
                                                   {{"detail", "must be fail or ok"}}, "store_reads"));
  boost::json::object set;
  if (reads) {
    ctx->svc.env.fail_reads(*reads == "fail");
    core::log_warn("faults", "store reads " + std::string{*reads == "fail" ? "fail from now on" : "work again"});
    set["store_reads"] = *reads;
  }
  if (delay) {
    ctx->svc.env.delay_commits(std::chrono::milliseconds{*delay});
    core::log_warn("faults", *delay ? "store commits start " + std::to_string(*delay) + " ms late from now on"
                                    : std::string{"store commits are on time again"});
    set["store_commit_delay_ms"] = *delay;
  }
  reply_json(ctx, 200, std::move(set));
}

} // namespace svc::http
