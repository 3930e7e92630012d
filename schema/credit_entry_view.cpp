#include "schema/credit_entry_view.hpp"

#include "schema/record_view.hpp"

namespace svc::schema {

boost::json::value credit_entry_view(const credit_entry_record& e) { return view_tree(e); }

} // namespace svc::schema
