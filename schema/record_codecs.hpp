#pragma once
// The stored (LMDB) form of each record as JSON. Times are Unix milliseconds.
// Decoders never throw: stored bytes are untrusted after a crash.

#include <boost/json/value.hpp>

#include "schema/records.hpp"

namespace svc::schema {

/// Stored form of each record.
boost::json::value encode(const team_record& r);
boost::json::value encode(const balance_record& r);
boost::json::value encode(const hold_record& r);
boost::json::value encode(const api_key_record& r);
boost::json::value encode(const lora_record& r);
boost::json::value encode(const bucket_snapshot& r);
boost::json::value encode(const idempotency_record& r);
boost::json::value encode(const usage_record& r);

/// Reads a stored record; false (and `r` unspecified) if a field is missing or mistyped.
bool decode(const boost::json::value& v, team_record& r);
bool decode(const boost::json::value& v, balance_record& r);
bool decode(const boost::json::value& v, hold_record& r);
bool decode(const boost::json::value& v, api_key_record& r);
bool decode(const boost::json::value& v, lora_record& r);
bool decode(const boost::json::value& v, bucket_snapshot& r);
bool decode(const boost::json::value& v, idempotency_record& r);
bool decode(const boost::json::value& v, usage_record& r);

} // namespace svc::schema
