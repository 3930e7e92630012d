#pragma once
// The stored (LMDB) form of a job record. Times are Unix milliseconds; the
// decoder never throws and rejects any missing or mistyped field, since
// stored bytes are untrusted after a crash.

#include <boost/json/value.hpp>

#include "schema/job_record.hpp"

namespace svc::schema {

boost::json::value encode(const job_record& r);
bool decode(const boost::json::value& v, job_record& r);

} // namespace svc::schema
