#pragma once
// The stored (LMDB) form of a credit history entry. Times are Unix
// milliseconds; the decoder never throws and rejects any missing, mistyped or
// out-of-range field, since stored bytes are untrusted after a crash.

#include <boost/json/value.hpp>

#include "schema/credit_entry.hpp"

namespace svc::schema {

/// The stored form of a credit entry.
boost::json::value encode(const credit_entry_record& r);
/// Reads a stored credit entry; false (and `r` unspecified) if a field is missing, mistyped or out of range.
bool decode(const boost::json::value& v, credit_entry_record& r);

} // namespace svc::schema
