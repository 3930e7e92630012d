#include "schema/json_numbers.hpp"

#include <cmath>

namespace svc::schema {

std::optional<int64_t> exact_int64(const boost::json::value& v) {
  if (auto* i = v.if_int64())
    return *i;
  if (auto* u = v.if_uint64(); u && *u <= static_cast<uint64_t>(INT64_MAX))
    return static_cast<int64_t>(*u);
  return std::nullopt;
}

std::optional<double> finite_number(const boost::json::value& v) {
  if (auto* d = v.if_double(); d && std::isfinite(*d))
    return *d;
  if (auto* i = v.if_int64())
    return static_cast<double>(*i);
  if (auto* u = v.if_uint64())
    return static_cast<double>(*u);
  return std::nullopt;
}

} // namespace svc::schema
