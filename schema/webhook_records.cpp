#include "schema/webhook_records.hpp"

#include <algorithm>

#include "core/enum_names.hpp"

namespace svc::schema {

bool subscribes(const webhook_endpoint_record& e, std::string_view type) {
  return std::find(e.events.begin(), e.events.end(), type) != e.events.end();
}

// A delivery that did not fail shows no error at all.
std::string_view to_string(delivery_error e) { return e == delivery_error::none ? "" : core::enumerator_name(e); }

std::optional<delivery_error> delivery_error_from_name(std::string_view name) {
  return core::enum_from_name<delivery_error>(name);
}

bool valid(const webhook_endpoint_record& e) { return e.consecutive_failures >= 0; }

bool valid(const delivery_record& d) { return !d.response_status || (*d.response_status >= 100 && *d.response_status <= 999); }

bool valid(const delivery_task& t) { return t.attempt >= 1 && t.attempt <= max_delivery_attempts; }

} // namespace svc::schema
