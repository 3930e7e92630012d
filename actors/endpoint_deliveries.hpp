#pragma once
// The endpoint's delivery engine: its pending tasks are attempted a few at a
// time when due, each attempt writes one delivery row, a failure re-arms the
// task from `--retry-schedule` until attempt 5 dies as a dead letter, and
// the contract's auto-disable rule is applied after each failure.

#include "actors/endpoint.hpp"

namespace svc::actors {

/// The log component of an endpoint.
std::string endpoint_component(endpoint_self self);

/// Loads the endpoint's pending tasks from LMDB and schedules them, then
/// tells the directory how many (`loaded`).
void load_tasks(endpoint_self self, const context& ctx, const endpoint_services& services);

/// Attempts `task` now if due, else when its stored deadline comes.
void schedule(endpoint_self self, const context& ctx, const endpoint_services& services,
              const schema::delivery_task& task);

/// Starts due tasks while fewer than `max_parallel_deliveries` are in flight.
void pump(endpoint_self self, const context& ctx, const endpoint_services& services);

/// Records how an attempt ended: its delivery row, a retry or the task's end,
/// the failure count and perhaps the auto-disable.
void on_attempted(endpoint_self self, const context& ctx, const endpoint_services& services, const std::string& id,
                  webhook_answer& answer);

/// Applies the auto-disable rule: disables now (its rows join `write`), or,
/// while a recent success holds it off, checks again when that success
/// leaves the window.
void check_disable(endpoint_self self, const context& ctx, const endpoint_services& services, endpoint_write& write);

/// The rows that drop every task not in flight (a disabled endpoint keeps no
/// queue; what it missed stays replayable). An attempt in flight still gets
/// its row when its answer comes.
void erase_queued_tasks(endpoint_self self, const context& ctx, persistence::write_batch& batch);

/// Drops every task not in flight from memory (after `erase_queued_tasks` landed).
void forget_queued_tasks(endpoint_self self);

} // namespace svc::actors
