#include "schema/stored_json.hpp"

#include <boost/json.hpp>

namespace svc::schema::stored_detail {

boost::json::value text(std::string_view s) { return boost::json::string_view{s.data(), s.size()}; }

} // namespace svc::schema::stored_detail
