#pragma once
// The wire form of a credit history entry, as `GET /admin/teams/{id}/credits` lists it.

#include <boost/json/value.hpp>

#include "schema/credit_entry.hpp"

namespace svc::schema {

/// `{id, object: "credit_entry", team_id, kind, amount, balance: {available, held}, job_id, reason, created_at}`
/// (`job_id` and `reason` null when there is none).
boost::json::value credit_entry_view(const credit_entry_record& e);

} // namespace svc::schema
