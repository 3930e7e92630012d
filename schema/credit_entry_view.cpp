#include "schema/credit_entry_view.hpp"

#include <boost/json.hpp>

#include "core/time_format.hpp"

namespace svc::schema {
namespace {

boost::json::value text_or_null(const std::string& s) {
  return s.empty() ? boost::json::value(nullptr) : boost::json::value(s);
}

} // namespace

boost::json::value credit_entry_view(const credit_entry_record& e) {
  return {{"id", e.id},
          {"object", "credit_entry"},
          {"team_id", e.team_id},
          {"kind", to_string(e.kind)},
          {"amount", e.amount},
          {"balance", {{"available", e.available_after}, {"held", e.held_after}}},
          {"job_id", text_or_null(e.job_id)},
          {"reason", text_or_null(e.reason)},
          {"created_at", core::format_iso8601(e.created_at)}};
}

} // namespace svc::schema
