#include "schema/credit_entry.hpp"

namespace svc::schema {
namespace {

constexpr credit_entry_kind all_kinds[] = {credit_entry_kind::grant, credit_entry_kind::hold, credit_entry_kind::charge,
                                           credit_entry_kind::release, credit_entry_kind::refund};

} // namespace

std::string_view to_string(credit_entry_kind k) {
  switch (k) {
  case credit_entry_kind::grant: return "grant";
  case credit_entry_kind::hold: return "hold";
  case credit_entry_kind::charge: return "charge";
  case credit_entry_kind::release: return "release";
  case credit_entry_kind::refund: return "refund";
  }
  return "grant";
}

std::optional<credit_entry_kind> credit_entry_kind_from_name(std::string_view name) {
  for (auto k : all_kinds)
    if (name == to_string(k))
      return k;
  return std::nullopt;
}

bool valid(const credit_entry_record& e) {
  auto within = [](int64_t v, int64_t low) { return v >= low && v <= max_credits; };
  return within(e.amount, -max_credits) && within(e.available_after, 0) && within(e.held_after, 0);
}

} // namespace svc::schema
