#include "schema/records.hpp"

namespace svc::schema {

bool valid(const team_record& t) {
  for (auto& [name, limits] : t.rate_limit_overrides)
    if (!within_bounds(limits))
      return false;
  return t.disabled_reason.size() <= max_disabled_reason && (t.disabled_at || t.disabled_reason.empty());
}

std::string_view to_string(hold_status s) {
  switch (s) {
  case hold_status::held: return "held";
  case hold_status::charged: return "charged";
  case hold_status::refunded: return "refunded";
  }
  return "held";
}

std::optional<hold_status> hold_status_from_name(std::string_view name) {
  for (auto s : {hold_status::held, hold_status::charged, hold_status::refunded})
    if (name == to_string(s))
      return s;
  return std::nullopt;
}

bool valid(const api_key_record& k) { return k.key_scope != scope::none; }

} // namespace svc::schema
