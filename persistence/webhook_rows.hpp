#pragma once
// The rows of webhook endpoints, events and deliveries, written into a batch,
// so every writer (the endpoint directory, endpoint actors, jobs, ledgers, the
// expiry sweeper) keeps the tables and their indexes in step.

#include <string>
#include <string_view>

#include "core/duration.hpp"
#include "persistence/store_tables.hpp"

namespace svc::persistence {

/// `a/b`: the key shape of every per-owner table.
std::string owned_key(std::string_view owner, std::string_view id);

/// An endpoint's record and its team-listing row.
void put_endpoint(const tables& t, write_batch& batch, const schema::webhook_endpoint_record& e);

/// Deletes an endpoint's record, its listing row and every task it still had;
/// an error (and nothing in `batch`) when its tasks cannot be read.
status erase_endpoint(const tables& t, write_batch& batch, const schema::webhook_endpoint_record& e);

/// Whether a new event still has to be handed to the team's endpoints.
enum class fan_out { pending, done };

/// An event's row, its feed row (not for test fires), its expiry after
/// `retention`, and, when `pending`, the row that makes recovery fan it out.
void put_event(const tables& t, write_batch& batch, const schema::event_record& e, core::duration retention,
               fan_out state);

/// A delivery task (`we_id/task_id`).
void put_task(const tables& t, write_batch& batch, const schema::delivery_task& task);

/// Deletes a delivery task.
void erase_task(const tables& t, write_batch& batch, const schema::delivery_task& task);

/// One attempt's row and its expiry after `retention`; a success also marks
/// the event delivered to the endpoint (replay skips it).
void put_delivery(const tables& t, write_batch& batch, const schema::delivery_record& d, core::duration retention);

} // namespace svc::persistence
