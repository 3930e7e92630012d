#include "schema/file_view.hpp"

#include "schema/record_view.hpp"

namespace svc::schema {

boost::json::value file_view(const file_record& f) { return view_tree(f); }

} // namespace svc::schema
