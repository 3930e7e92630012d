#include "schema/records.hpp"

#include "core/enum_names.hpp"

namespace svc::schema {

bool valid(const team_record& t) {
  for (auto& [name, limits] : t.rate_limit_overrides)
    if (!within_bounds(limits))
      return false;
  if (!(t.renders.weight >= min_render_weight && t.renders.weight <= max_render_weight) ||
      t.renders.max_concurrent < 0 || t.renders.max_concurrent > max_concurrent_renders)
    return false;
  return t.disabled_reason.size() <= max_disabled_reason && (t.disabled_at || t.disabled_reason.empty());
}

std::string_view to_string(hold_status s) { return core::enumerator_name(s); }

std::optional<hold_status> hold_status_from_name(std::string_view name) { return core::enum_from_name<hold_status>(name); }

bool valid(const api_key_record& k) { return k.key_scope != scope::none; }

} // namespace svc::schema
