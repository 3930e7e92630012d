#include "schema/webhook_records.hpp"

#include <algorithm>

namespace svc::schema {

bool subscribes(const webhook_endpoint_record& e, std::string_view type) {
  return std::find(e.events.begin(), e.events.end(), type) != e.events.end();
}

std::string_view to_string(delivery_error e) {
  switch (e) {
  case delivery_error::none: return "";
  case delivery_error::http_4xx: return "http_4xx";
  case delivery_error::http_5xx: return "http_5xx";
  case delivery_error::timeout: return "timeout";
  case delivery_error::connect_refused: return "connect_refused";
  case delivery_error::tls_error: return "tls_error";
  case delivery_error::connect_error: return "connect_error";
  }
  return "";
}

std::optional<delivery_error> delivery_error_from_name(std::string_view name) {
  for (auto e : {delivery_error::none, delivery_error::http_4xx, delivery_error::http_5xx, delivery_error::timeout,
                 delivery_error::connect_refused, delivery_error::tls_error, delivery_error::connect_error})
    if (name == to_string(e))
      return e;
  return std::nullopt;
}

bool valid(const webhook_endpoint_record& e) { return e.consecutive_failures >= 0; }

bool valid(const delivery_record& d) { return !d.response_status || (*d.response_status >= 100 && *d.response_status <= 999); }

bool valid(const delivery_task& t) { return t.attempt >= 1 && t.attempt <= max_delivery_attempts; }

} // namespace svc::schema
