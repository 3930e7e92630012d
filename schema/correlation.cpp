#include "schema/correlation.hpp"

#include <boost/json.hpp>

#include "schema/json_fields.hpp"

namespace svc::schema {
namespace json = boost::json;

correlation correlation_of(const std::string& client_request_id, const std::string& request_id,
                           const std::optional<trace_parent>& trace) {
  return {client_request_id.empty() ? request_id : client_request_id, trace};
}

std::vector<std::pair<std::string, std::string>> outbound_headers(const correlation& c) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!c.request_id.empty())
    out.emplace_back("X-Request-Id", c.request_id);
  if (c.trace)
    out.emplace_back("traceparent", child_traceparent(*c.trace, new_span_id()));
  return out;
}

json::value encode(const correlation& c) {
  if (c.request_id.empty() && !c.trace)
    return nullptr;
  json::object o{{"request_id", c.request_id}};
  if (c.trace) {
    o["trace_id"] = c.trace->trace_id;
    o["trace_flags"] = c.trace->flags;
  }
  return o;
}

bool decode(const json::value* v, correlation& c) {
  c = correlation{};
  if (!v || v->is_null())
    return true;
  json_fields f{*v};
  c.request_id = f.str("request_id");
  auto* o = v->if_object();
  if (!f.ok())
    return false;
  if (o->contains("trace_id") || o->contains("trace_flags")) {
    c.trace = trace_parent{f.str("trace_id"), f.str("trace_flags")};
    if (!f.ok() || !valid_trace(*c.trace))
      return false;
  }
  return c.request_id.empty() || valid_client_request_id(c.request_id);
}

} // namespace svc::schema
