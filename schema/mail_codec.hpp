#pragma once
// The stored (LMDB) form of a queued e-mail. Times are Unix milliseconds; the
// decoder never throws and rejects any missing or mistyped field.

#include <boost/json/value.hpp>

#include "schema/queued_mail.hpp"

namespace svc::schema {

/// The stored form of a queued e-mail.
boost::json::value encode(const queued_mail& r);
/// Reads a stored queued e-mail; false (and `r` unspecified) if a field is missing or mistyped.
bool decode(const boost::json::value& v, queued_mail& r);

} // namespace svc::schema
