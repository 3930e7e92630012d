#include "schema/credit_entry.hpp"

#include "core/enum_names.hpp"

namespace svc::schema {

std::string_view to_string(credit_entry_kind k) { return core::enumerator_name(k); }

std::optional<credit_entry_kind> credit_entry_kind_from_name(std::string_view name) {
  return core::enum_from_name<credit_entry_kind>(name);
}

bool valid(const credit_entry_record& e) {
  auto within = [](int64_t v, int64_t low) { return v >= low && v <= max_credits; };
  return within(e.amount, -max_credits) && within(e.available_after, 0) && within(e.held_after, 0);
}

} // namespace svc::schema
