#pragma once
// The stored (LMDB) form of webhook endpoints, events, delivery rows and
// delivery tasks. Times are Unix milliseconds; decoders never throw and
// reject any missing or mistyped field.

#include <boost/json/value.hpp>

#include "schema/webhook_records.hpp"

namespace svc::schema {

boost::json::value encode(const webhook_endpoint_record& r);
boost::json::value encode(const event_record& r);
boost::json::value encode(const delivery_record& r);
boost::json::value encode(const delivery_task& r);

bool decode(const boost::json::value& v, webhook_endpoint_record& r);
bool decode(const boost::json::value& v, event_record& r);
bool decode(const boost::json::value& v, delivery_record& r);
bool decode(const boost::json::value& v, delivery_task& r);

} // namespace svc::schema
