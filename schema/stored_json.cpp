#include "schema/stored_json.hpp"

#include <cmath>

#include <boost/json.hpp>

namespace svc::schema::stored_detail {

std::optional<int64_t> integer(const boost::json::value& v) {
  if (auto* i = v.if_int64())
    return *i;
  if (auto* u = v.if_uint64(); u && *u <= static_cast<uint64_t>(INT64_MAX))
    return static_cast<int64_t>(*u);
  return std::nullopt;
}

std::optional<double> number(const boost::json::value& v) {
  // JSON text such as 1e400 parses to infinity, which no view can render as JSON.
  if (auto* d = v.if_double(); d && std::isfinite(*d))
    return *d;
  if (auto* i = v.if_int64())
    return static_cast<double>(*i);
  if (auto* u = v.if_uint64())
    return static_cast<double>(*u);
  return std::nullopt;
}

boost::json::value text(std::string_view s) { return boost::json::string_view{s.data(), s.size()}; }

} // namespace svc::schema::stored_detail
