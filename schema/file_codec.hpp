#pragma once
// The stored (LMDB) form of a file record. Times are Unix milliseconds; the
// decoder never throws and rejects any missing or mistyped field, since
// stored bytes are untrusted after a crash.

#include <boost/json/value.hpp>

#include "schema/file_record.hpp"

namespace svc::schema {

/// The stored form of a file record.
boost::json::value encode(const file_record& r);
/// Reads a stored file record; false (and `r` unspecified) if a field is missing or mistyped.
bool decode(const boost::json::value& v, file_record& r);

} // namespace svc::schema
